/** The maintenance sweep's contract: what expired and was removed, per kind of record. */
export interface PurgeReport {
  sessions: number;
  rateLimitCounters: number;
  outbox: number;
  realtimeEvents: number;
  idempotencyKeys: number;
  agentCommands: number;
  /** TV push attempts older than 30 days. */
  tvLog: number;
  /** Claims of e-mails sent more than 30 days ago (src/platform/db/mail-claims.ts). */
  mailClaims: number;
  /** Webhook events and delivery attempts older than 30 days (the replay and feed window). */
  webhookEvents: number;
}

export interface MaintenanceActivities {
  /** Idempotent: each run deletes whatever has expired by then. */
  purgeExpiredRecords(): Promise<PurgeReport>;
}
