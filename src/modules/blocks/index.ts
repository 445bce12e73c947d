export type { BlocksService } from './blocks.service';
