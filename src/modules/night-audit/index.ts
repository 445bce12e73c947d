export type { NightAuditService } from './night-audit.service';
export type { AuditSnapshot } from './night-audit.types';
