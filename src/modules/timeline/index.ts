export type { TimelineService } from './timeline.service';
