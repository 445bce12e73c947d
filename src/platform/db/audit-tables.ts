import type { Knex } from 'knex';

/**
 * Which tables the audit log records and what it masks in them (docs/decisions/audit-log.md). Migration 104 installs
 * the `audit_capture` trigger on every business table through `installAuditTriggers`; a later migration that creates
 * a table or adds a column calls it again for its tables (the trigger's arguments are computed from the columns the
 * table has then). test/api/audit-contract.test.ts fails when a table with a `hotel_id` has no trigger and is not in
 * `NOT_AUDITED`, or when a column whose name says personal data or a secret is not masked by its trigger.
 */

/** Tables whose rows are the platform's machinery, queues, logs or derived counters, not changes anyone makes. */
export const NOT_AUDITED: readonly string[] = [
  'audit_entries',
  'audit_heads',
  'audit_pending',
  'idempotency_keys',
  'inventory_versions',
  'mail_claims',
  'outbox',
  'rate_limit_counters',
  'realtime_events',
  'realtime_event_heads',
  'realtime_event_horizons',
  'invoice_counters',
  'chat_presence',
  'chat_reads',
  'chat_unread_pushes',
  'agent_commands',
  'tv_push_log',
  'notification_recipients',
  'webhook_events',
  'webhook_event_horizons',
  'webhook_deliveries',
  'channel_ari_pushed',
];

/**
 * Names that say personal data (names, contacts, documents, notes, reasons, tax numbers, device addresses) or a secret
 * (tokens, hashes, passwords, keys of a push subscription, SMTP credentials): matched against every column and, case
 * insensitively, against every key inside a jsonb value.
 */
export const PERSONAL_NAMES =
  '^(first_name|last_name|middle_name|.*_name|email|.*_email|.*phone.*|.*birth.*|.*passport.*|' +
  'document_number.*|notes?|.*_notes?|comment|.*_comment|address|.*_address|username|.*token.*|.*hash.*|' +
  '.*secret.*|.*password.*|.*_encrypted|blacklist_reason|citizenship|inn|.*_inn|payer|.*_mac|endpoint|auth|p256dh|' +
  'smtp_user|.*smtp_pass.*)$';

/** Keys inside jsonb values masked besides: camelCase names (`guestName`, `phoneNumber`) and a bare `name`. */
const JSON_KEYS = `${PERSONAL_NAMES}|^(.*name|.*email|.*phone.*|.*token.*|.*password.*|.*secret.*|.*passport.*)$`;

/**
 * Columns masked in one table besides: a person's name, a payer, messages, tasks, codes and free-text descriptions that
 * may carry names and contacts (a notification's title names the guest; staff write names into descriptions).
 */
export const MASKED_IN: Readonly<Record<string, readonly string[]>> = {
  users: ['name'],
  account_requests: ['name'],
  invoices: ['payer'],
  invoice_emails: ['to'],
  notifications: ['data', 'body', 'title'],
  folio_lines: ['description'],
  booking_charges: ['description'],
  invoice_lines: ['description'],
  tourist_tax_exemptions: ['description'],
  chat_messages: ['text'],
  fiscal_receipts: ['task', 'fiscal'],
  card_issuances: ['card_number'],
  room_service_stay_codes: ['code'],
  room_service_orders: ['cancel_reason', 'refund_reason'],
  reviews: ['reply'],
  credit_notes: ['reason'],
  loyalty_entries: ['reason'],
  deposits: ['card_last4', 'confirmation_url'],
  online_payments: ['confirmation_url'],
  webhook_subscriptions: ['endpoint', 'url'],
  channel_revisions: ['revision', 'unplaced_detail'],
};

/** Per table, columns whose change alone is bookkeeping (a heartbeat, a delivery cursor), not recorded. */
export const BOOKKEEPING: Readonly<Record<string, readonly string[]>> = {
  workstations: ['last_seen_at', 'updated_at'],
  webhook_subscriptions: ['cursor', 'updated_at'],
  channel_connections: ['last_synced_at', 'last_error', 'last_reconciliation', 'updated_at'],
};

interface Column {
  table: string;
  column: string;
  type: string;
}

/** Whether `column` of `table` is written as "[masked]". */
export function isMasked({ table, column, type }: Column): boolean {
  return (
    new RegExp(PERSONAL_NAMES).test(column) ||
    (MASKED_IN[table]?.includes(column) ?? false) ||
    type === 'tsvector' ||
    type === 'bytea'
  );
}

async function columnsOf(knex: Knex, tables: readonly string[] | undefined): Promise<Column[]> {
  const { rows } = (await knex.raw(
    `SELECT c.table_name AS table, c.column_name AS column, c.data_type AS type
       FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND (c.table_name = 'hotels' OR c.table_name IN (
              SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'hotel_id'))
      ORDER BY 1, c.ordinal_position`,
  )) as { rows: Column[] };
  return rows.filter((row) => !NOT_AUDITED.includes(row.table) && (!tables || tables.includes(row.table)));
}

/** The columns naming a row: `id`, or else the primary key's. */
async function keyOf(knex: Knex, table: string, columns: string[]): Promise<string[]> {
  if (columns.includes('id')) return ['id'];
  const { rows } = (await knex.raw(
    `SELECT a.attname AS name FROM pg_index i
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = ?::regclass AND i.indisprimary
      ORDER BY array_position(i.indkey::int2[], a.attnum)`,
    [table],
  )) as { rows: { name: string }[] };
  return rows.map((row) => row.name).filter((name) => name !== 'hotel_id');
}

/**
 * (Re)installs `audit_capture` on `tables` (all business tables when omitted), with the arguments the trigger reads:
 * the hotel's column, the key columns, the bookkeeping columns, then the columns to mask.
 */
export async function installAuditTriggers(knex: Knex, tables?: readonly string[]): Promise<void> {
  const byTable = new Map<string, Column[]>();
  for (const column of await columnsOf(knex, tables))
    byTable.set(column.table, [...(byTable.get(column.table) ?? []), column]);
  for (const [table, columns] of byTable) {
    const names = columns.map((column) => column.column);
    const args = [
      table === 'hotels' ? 'id' : 'hotel_id',
      (await keyOf(knex, table, names)).join(','),
      (BOOKKEEPING[table] ?? []).join(','),
      ...columns.filter(isMasked).map((column) => column.column),
    ];
    await knex.raw('DROP TRIGGER IF EXISTS audit_capture ON ??', [table]);
    await knex.raw(
      `CREATE TRIGGER audit_capture AFTER INSERT OR UPDATE OR DELETE ON ?? FOR EACH ROW
         EXECUTE FUNCTION audit_capture(${args.map((arg) => `'${arg}'`).join(', ')})`,
      [table],
    );
  }
}

/** The function masking keys inside jsonb values, at any depth (its pattern is `JSON_KEYS`). */
export const AUDIT_MASK_JSON = `
  CREATE OR REPLACE FUNCTION audit_mask_json(value jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
  BEGIN
    IF jsonb_typeof(value) = 'object' THEN
      RETURN (SELECT coalesce(jsonb_object_agg(e.key, CASE WHEN e.value <> 'null' AND e.key ~* '${JSON_KEYS}'
                                                           THEN '"[masked]"'::jsonb ELSE audit_mask_json(e.value) END),
                              '{}'::jsonb)
                FROM jsonb_each(value) e);
    ELSIF jsonb_typeof(value) = 'array' THEN
      RETURN (SELECT coalesce(jsonb_agg(audit_mask_json(a.value) ORDER BY a.ord), '[]'::jsonb)
                FROM jsonb_array_elements(value) WITH ORDINALITY a(value, ord));
    END IF;
    RETURN value;
  END
  $$`;
