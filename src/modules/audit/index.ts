export type { AuditService } from './audit.service';
export type { AuditEntry, ChainVerdict } from './audit.types';
