export type { RetentionService } from './retention.service';
