import type { Knex } from 'knex';

/**
 * The audit log (docs/decisions/audit-log.md). A row trigger on every business table (each table with a `hotel_id`,
 * and `hotels`) records each insert, update and delete in `audit_entries`, in the transaction that makes it: the
 * fields before and after (of an update, only those that changed), personal data and secrets replaced by "[masked]",
 * and who did it, read from the connection's `audit.context` setting (the platform's `audit-context.ts` keeps it
 * equal to the request's or the job's context). An entry is inserted with a provisional negative `seq`; a deferred
 * trigger at commit, under the hotel's advisory lock (as the realtime events are numbered, migration 017), gives each
 * of the transaction's entries the hotel's next number and chains it: its `hash` is sha256 of the previous entry's
 * hash and the entry's own content. `audit_heads` holds each hotel's last number and hash.
 */

/** Tables whose rows are the platform's machinery, queues, logs or derived counters, not changes anyone makes. */
const NOT_AUDITED = [
  'audit_entries',
  'audit_heads',
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
];

/** Columns masked in every table: personal data (names, contacts, documents, notes) and secrets. */
const MASKED_NAMES =
  '^(first_name|last_name|middle_name|.*_name|email|.*_email|phone|.*_phone|phone_normalized|.*birth.*|' +
  '.*passport.*|document_number.*|notes?|.*_notes?|comment|address|username|.*token.*|.*hash.*|.*secret.*|' +
  '.*password.*|.*_encrypted)$';

/**
 * Columns masked in one table besides: a person's name, a payer, messages, tasks and free-text descriptions that may
 * carry names and contacts (a notification's title names the guest; staff write names into charges' descriptions).
 */
const MASKED_IN: Record<string, string[]> = {
  users: ['name'],
  account_requests: ['name'],
  invoices: ['payer'],
  invoice_emails: ['to'],
  notifications: ['data', 'body', 'title'],
  folio_lines: ['description'],
  booking_charges: ['description'],
  invoice_lines: ['description'],
  chat_messages: ['text'],
  fiscal_receipts: ['task'],
  card_issuances: ['card_number'],
};

const HOTEL_LOCK_CLASS = 1096107348;

async function auditedTables(knex: Knex): Promise<{ table: string; hotelColumn: string; masked: string[] }[]> {
  const { rows } = (await knex.raw(
    `SELECT c.table_name AS table, c.column_name AS column, c.data_type AS type
       FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND (c.table_name = 'hotels' OR c.table_name IN (
              SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'hotel_id'))
      ORDER BY 1, 2`,
  )) as { rows: { table: string; column: string; type: string }[] };
  const tables = new Map<string, string[]>();
  const pattern = new RegExp(MASKED_NAMES);
  for (const { table, column, type } of rows) {
    if (NOT_AUDITED.includes(table)) continue;
    const masked = tables.get(table) ?? [];
    const extra = MASKED_IN[table]?.includes(column);
    if (pattern.test(column) || extra || type === 'tsvector' || type === 'bytea') masked.push(column);
    tables.set(table, masked);
  }
  return [...tables].map(([table, masked]) => ({ table, hotelColumn: table === 'hotels' ? 'id' : 'hotel_id', masked }));
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE SEQUENCE audit_entries_pending_seq');
  await knex.raw(`
    CREATE TABLE audit_entries (
      hotel_id uuid NOT NULL,
      seq bigint NOT NULL DEFAULT -nextval('audit_entries_pending_seq'),
      at timestamptz NOT NULL DEFAULT clock_timestamp(),
      actor_kind text NOT NULL,
      actor_id text,
      actor_role text,
      operation text NOT NULL,
      resource text NOT NULL,
      resource_id text,
      action text NOT NULL,
      before jsonb,
      after jsonb,
      request_id text,
      idempotency_key text,
      address text,
      prev_hash text,
      hash text,
      PRIMARY KEY (hotel_id, seq)
    )`);
  await knex.raw('ALTER SEQUENCE audit_entries_pending_seq OWNED BY audit_entries.seq');
  await knex.raw('CREATE INDEX audit_entries_resource ON audit_entries (hotel_id, resource, resource_id, seq)');
  await knex.raw('CREATE INDEX audit_entries_request ON audit_entries (hotel_id, request_id)');
  await knex.raw(`
    CREATE TABLE audit_heads (
      hotel_id uuid PRIMARY KEY,
      last_seq bigint NOT NULL,
      last_hash text
    )`);

  // What an entry's hash covers: the previous hash (in the row) and every field but the hash; the time as its epoch,
  // so the text does not depend on the session's time zone.
  await knex.raw(`
    CREATE FUNCTION audit_entry_hash(entry audit_entries) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT encode(sha256(convert_to(
        coalesce(entry.prev_hash, '') || (to_jsonb(entry) - 'hash' - 'at')::text || extract(epoch FROM entry.at)::text,
        'UTF8')), 'hex')
    $$`);

  await knex.raw(`
    CREATE FUNCTION audit_insert(hotel uuid, context jsonb, resource text, resource_id text, action text,
                                 before jsonb, after jsonb) RETURNS void LANGUAGE sql AS $$
      INSERT INTO audit_entries (hotel_id, actor_kind, actor_id, actor_role, operation, resource, resource_id, action,
                                 before, after, request_id, idempotency_key, address)
      VALUES (hotel, coalesce(context->'actor'->>'kind', 'system'),
              coalesce(context->'actor'->>'id', context->'actor'->>'name', context->'actor'->>'via'),
              context->'actor'->>'role', coalesce(context->>'operation', 'unknown'), resource, resource_id, action,
              before, after, context->>'requestId', context->>'idempotencyKey', context->>'address')
    $$`);

  // TG_ARGV[0]: the column holding the hotel's id; the others: the columns to mask.
  await knex.raw(`
    CREATE FUNCTION audit_capture() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      old_row jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
      new_row jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
      hotel text := coalesce(new_row, old_row)->>TG_ARGV[0];
      masked text[] := TG_ARGV[1:TG_NARGS];
      before_image jsonb;
      after_image jsonb;
      hotels text;
    BEGIN
      IF hotel IS NULL THEN
        RETURN NULL;
      END IF;
      SELECT jsonb_object_agg(o.key, CASE WHEN o.key = ANY(masked) AND o.value <> 'null' THEN '"[masked]"' ELSE o.value END)
        INTO before_image
        FROM jsonb_each(old_row) o WHERE new_row IS NULL OR new_row->o.key IS DISTINCT FROM o.value;
      SELECT jsonb_object_agg(n.key, CASE WHEN n.key = ANY(masked) AND n.value <> 'null' THEN '"[masked]"' ELSE n.value END)
        INTO after_image
        FROM jsonb_each(new_row) n WHERE old_row IS NULL OR old_row->n.key IS DISTINCT FROM n.value;
      IF TG_OP = 'UPDATE' AND after_image IS NULL THEN
        RETURN NULL;
      END IF;
      -- The hotels whose locks the commit takes (see audit_entries_commit).
      hotels := coalesce(current_setting('audit.hotels', true), '');
      IF strpos(hotels, hotel) = 0 THEN
        PERFORM set_config('audit.hotels', hotels || hotel || ',', true);
      END IF;
      PERFORM audit_insert(hotel::uuid,
                           nullif(current_setting('audit.context', true), '')::jsonb,
                           TG_TABLE_NAME, coalesce(new_row, old_row)->>'id', lower(TG_OP), before_image, after_image);
      RETURN NULL;
    END
    $$`);

  // A successful changing request that changed no audited row: one entry naming its operation.
  await knex.raw(`
    CREATE FUNCTION audit_record_request(hotel uuid, context jsonb) RETURNS void LANGUAGE sql AS $$
      SELECT audit_insert(hotel, context, 'request', NULL, 'request', NULL, NULL)
       WHERE NOT EXISTS (SELECT 1 FROM audit_entries WHERE hotel_id = hotel AND request_id = context->>'requestId')
    $$`);

  // Fires for each entry, in the order they were written. The first firing takes the advisory locks of every hotel the
  // transaction wrote entries for (named in the transaction-local `audit.hotels`), sorted, so two transactions never
  // wait for each other's hotels in opposite orders; each firing then numbers and chains its own entry by its key, so a
  // commit reads no other entries.
  await knex.raw(`
    CREATE FUNCTION audit_entries_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      entry audit_entries%ROWTYPE := NEW;
    BEGIN
      IF coalesce(current_setting('audit.locked', true), '') = '' THEN
        PERFORM pg_advisory_xact_lock(${HOTEL_LOCK_CLASS}, key)
          FROM (SELECT DISTINCT hashtext(hotel) AS key
                  FROM unnest(string_to_array(coalesce(current_setting('audit.hotels', true), '') || NEW.hotel_id, ','))
                       AS hotel
                 WHERE hotel <> '') AS locks
          ORDER BY key;
        PERFORM set_config('audit.locked', 'yes', true);
      ELSE
        PERFORM pg_advisory_xact_lock(${HOTEL_LOCK_CLASS}, hashtext(NEW.hotel_id::text));
      END IF;
      SELECT coalesce(max(last_seq), 0) + 1, max(last_hash) INTO entry.seq, entry.prev_hash
        FROM audit_heads WHERE hotel_id = NEW.hotel_id;
      entry.at := clock_timestamp();
      entry.hash := audit_entry_hash(entry);
      UPDATE audit_entries SET seq = entry.seq, at = entry.at, prev_hash = entry.prev_hash, hash = entry.hash
       WHERE hotel_id = NEW.hotel_id AND seq = NEW.seq;
      INSERT INTO audit_heads (hotel_id, last_seq, last_hash) VALUES (NEW.hotel_id, entry.seq, entry.hash)
        ON CONFLICT (hotel_id) DO UPDATE SET last_seq = EXCLUDED.last_seq, last_hash = EXCLUDED.last_hash;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER audit_entries_commit AFTER INSERT ON audit_entries
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_entries_commit()`);

  for (const { table, hotelColumn, masked } of await auditedTables(knex)) {
    const args = [hotelColumn, ...masked].map((name) => `'${name}'`).join(', ');
    await knex.raw(
      `CREATE TRIGGER audit_capture AFTER INSERT OR UPDATE OR DELETE ON ?? FOR EACH ROW EXECUTE FUNCTION audit_capture(${args})`,
      [table],
    );
  }
}

export async function down(): Promise<void> {
  throw new Error('forward-only: the audit log is kept');
}
