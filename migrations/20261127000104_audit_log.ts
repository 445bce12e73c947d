import type { Knex } from 'knex';
import { AUDIT_MASK_JSON, installAuditTriggers } from '../src/platform/db/audit-tables';

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

/** The hotel's commit lock: the class the realtime events' and inventory's commit triggers take (migration 052). */
const HOTEL_LOCK_CLASS = 1381258821;

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
  // The read route's other filters, each in keyset order within a hotel.
  await knex.raw('CREATE INDEX audit_entries_record ON audit_entries (hotel_id, resource_id, seq)');
  await knex.raw('CREATE INDEX audit_entries_actor ON audit_entries (hotel_id, actor_id, seq)');
  await knex.raw('CREATE INDEX audit_entries_operation ON audit_entries (hotel_id, operation, seq)');
  await knex.raw('CREATE INDEX audit_entries_at ON audit_entries (hotel_id, at)');
  await knex.raw(`
    CREATE TABLE audit_heads (
      hotel_id uuid PRIMARY KEY,
      last_seq bigint NOT NULL,
      last_hash text
    )`);

  // What an entry's hash covers: the previous hash and a fixed list of the entry's fields (a column added later changes
  // no past hash); the time as its epoch, so the text does not depend on the session's time zone.
  await knex.raw(`
    CREATE FUNCTION audit_entry_hash(entry audit_entries) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT encode(sha256(convert_to(
        coalesce(entry.prev_hash, '') ||
        jsonb_build_object('hotel_id', entry.hotel_id, 'seq', entry.seq, 'actor_kind', entry.actor_kind,
                           'actor_id', entry.actor_id, 'actor_role', entry.actor_role, 'operation', entry.operation,
                           'resource', entry.resource, 'resource_id', entry.resource_id, 'action', entry.action,
                           'before', entry.before, 'after', entry.after, 'request_id', entry.request_id,
                           'idempotency_key', entry.idempotency_key, 'address', entry.address,
                           'prev_hash', entry.prev_hash)::text ||
        extract(epoch FROM entry.at)::text,
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

  await knex.raw(AUDIT_MASK_JSON);
  // One side of a row's change: the fields (of an update, those that differ from `other`), masked ones as "[masked]",
  // keys saying personal data inside jsonb values masked too.
  await knex.raw(`
    CREATE FUNCTION audit_image(image jsonb, other jsonb, masked text[]) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
      SELECT jsonb_object_agg(f.key, CASE WHEN f.value = 'null' THEN f.value
                                          WHEN f.key = ANY(masked) THEN '"[masked]"'::jsonb
                                          WHEN jsonb_typeof(f.value) IN ('object', 'array') THEN audit_mask_json(f.value)
                                          ELSE f.value END)
        FROM jsonb_each(image) f WHERE other IS NULL OR other->f.key IS DISTINCT FROM f.value
    $$`);

  // The arguments (src/platform/db/audit-tables.ts): the column holding the hotel's id; the key columns naming the row
  // (comma-separated); the bookkeeping columns whose change alone is not recorded; then the columns to mask.
  await knex.raw(`
    CREATE FUNCTION audit_capture() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      old_row jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
      new_row jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
      hotel text := coalesce(new_row, old_row)->>TG_ARGV[0];
      ignored text[] := string_to_array(TG_ARGV[2], ',');
      masked text[] := TG_ARGV[3:TG_NARGS];
      record_id text;
      hotels text;
    BEGIN
      IF hotel IS NULL THEN
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND NOT EXISTS (SELECT 1 FROM jsonb_each(new_row) n
                                           WHERE NOT n.key = ANY(ignored) AND old_row->n.key IS DISTINCT FROM n.value) THEN
        RETURN NULL;
      END IF;
      SELECT string_agg(coalesce(new_row, old_row)->>k.name, ':' ORDER BY k.position) INTO record_id
        FROM unnest(string_to_array(TG_ARGV[1], ',')) WITH ORDINALITY AS k(name, position);
      -- The hotels whose locks the commit takes (see audit_entries_commit).
      hotels := coalesce(current_setting('audit.hotels', true), '');
      IF strpos(hotels, hotel) = 0 THEN
        PERFORM set_config('audit.hotels', hotels || hotel || ',', true);
      END IF;
      PERFORM audit_insert(hotel::uuid,
                           nullif(current_setting('audit.context', true), '')::jsonb,
                           TG_TABLE_NAME, record_id, lower(TG_OP),
                           audit_image(old_row, new_row, masked), audit_image(new_row, old_row, masked));
      RETURN NULL;
    END
    $$`);

  // A successful changing request that changed no audited row: one entry naming its operation.
  await knex.raw(`
    CREATE FUNCTION audit_record_request(hotel uuid, context jsonb) RETURNS void LANGUAGE sql AS $$
      SELECT audit_insert(hotel, context, 'request', NULL, 'request', NULL, NULL)
       WHERE NOT EXISTS (SELECT 1 FROM audit_entries WHERE hotel_id = hotel AND request_id = context->>'requestId')
    $$`);

  // Fires for each entry, in the order they were written. The first firing of a transaction takes the commit locks of
  // every hotel it wrote entries for (named in the transaction-local `audit.hotels`), sorted by key, the same locks the
  // realtime events' and inventory's commit triggers take (re-entrant within a transaction), then numbers and chains
  // all of the transaction's pending entries hotel by hotel in one pass, carrying the running number and hash, and
  // writes each hotel's head once. Its pending entries are those with a negative seq between the firing entry's and
  // the session's latest provisional number (those of other open transactions are invisible, those committed are
  // renumbered); later firings see from 'audit.numbered' that their entry was numbered and return. Entries are
  // updated by their row's address, so the pass reads the table once whatever plan the statistics give.
  await knex.raw(`
    CREATE FUNCTION audit_entries_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      newest bigint;
      hotels text[];
      hotel uuid;
      last_seq bigint;
      last_hash text;
      entry audit_entries%ROWTYPE;
      pending record;
      numbered boolean;
    BEGIN
      -- Numbered already: written before the pass that numbered everything down to 'audit.numbered' (no query, so
      -- no plan made while the table looked empty can turn this into a scan per entry).
      IF NEW.seq >= coalesce(nullif(current_setting('audit.numbered', true), '')::bigint, 0) THEN
        RETURN NULL;
      END IF;
      newest := -currval('audit_entries_pending_seq');
      PERFORM set_config('audit.numbered', newest::text, true);
      hotels := array_remove(string_to_array(coalesce(current_setting('audit.hotels', true), '') || NEW.hotel_id, ','),
                             '');
      PERFORM pg_advisory_xact_lock(${HOTEL_LOCK_CLASS}, key)
        FROM (SELECT DISTINCT hashtext(name) AS key FROM unnest(hotels) AS name) AS locks
        ORDER BY key;
      FOR hotel IN SELECT DISTINCT name::uuid FROM unnest(hotels) AS name LOOP
        SELECT h.last_seq, h.last_hash INTO last_seq, last_hash FROM audit_heads h WHERE h.hotel_id = hotel;
        last_seq := coalesce(last_seq, 0);
        numbered := false;
        FOR pending IN SELECT e.ctid AS tid, e AS entry FROM audit_entries e
                        WHERE e.hotel_id = hotel AND e.seq BETWEEN newest AND NEW.seq ORDER BY e.seq DESC LOOP
          entry := pending.entry;
          numbered := true;
          last_seq := last_seq + 1;
          entry.seq := last_seq;
          entry.at := clock_timestamp();
          entry.prev_hash := last_hash;
          last_hash := audit_entry_hash(entry);
          UPDATE audit_entries SET seq = entry.seq, at = entry.at, prev_hash = entry.prev_hash, hash = last_hash
           WHERE ctid = pending.tid;
        END LOOP;
        IF numbered THEN
          INSERT INTO audit_heads (hotel_id, last_seq, last_hash) VALUES (hotel, last_seq, last_hash)
            ON CONFLICT (hotel_id) DO UPDATE SET last_seq = EXCLUDED.last_seq, last_hash = EXCLUDED.last_hash;
        END IF;
      END LOOP;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER audit_entries_commit AFTER INSERT ON audit_entries
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_entries_commit()`);

  // The log is written once: an entry changes only from provisional to numbered, by the commit trigger; a head only
  // by it. A deliberate change (a test forging an entry) must disable this trigger first, as the table's owner.
  await knex.raw(`
    CREATE FUNCTION audit_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF pg_trigger_depth() > 1 AND (TG_TABLE_NAME = 'audit_heads' OR (to_jsonb(OLD)->>'seq')::bigint < 0) THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'the audit log is append-only: % cannot be updated', TG_TABLE_NAME USING ERRCODE = '42501';
    END
    $$`);
  for (const table of ['audit_entries', 'audit_heads'])
    await knex.raw(
      'CREATE TRIGGER audit_append_only BEFORE UPDATE ON ?? FOR EACH ROW EXECUTE FUNCTION audit_refuse_update()',
      [table],
    );

  await installAuditTriggers(knex);
}

export async function down(): Promise<void> {
  throw new Error('forward-only: the audit log is kept');
}
