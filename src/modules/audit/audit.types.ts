/** One entry of the audit log, as the read routes answer it. */
export interface AuditEntry {
  seq: number;
  at: Date;
  actor: { kind: string; id: string | null; role: string | null };
  operation: string;
  resource: string;
  resource_id: string | null;
  /** `insert`, `update`, `delete` of a row, or `request`: a changing request that changed no audited row. */
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  request_id: string | null;
  idempotency_key: string | null;
  address: string | null;
  prev_hash: string | null;
  hash: string;
}

export interface AuditFilter {
  resource?: string;
  resource_id?: string;
  actor_kind?: string;
  actor_id?: string;
  operation?: string;
  from?: Date;
  to?: Date;
}

/** What the chain's check found: intact, or the first entry whose link is broken and why. */
export type ChainVerdict =
  | { intact: true; entries: number; last_hash: string | null; next_from_seq?: number }
  | { intact: false; entries: number; broken_at: number; reason: ChainBreak };

export type ChainBreak = 'content_changed' | 'previous_hash_mismatch' | 'entry_missing' | 'head_mismatch';
