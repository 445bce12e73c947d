import type { Knex } from 'knex';

/**
 * The audit log's entries wait for their number in a stage of their own (docs/decisions/audit-log.md, The chain).
 * Migration 104 inserted each entry into `audit_entries` with a provisional negative `seq` and numbered it at commit by
 * an UPDATE: the number is in the key and in every one of the table's seven indexes, so each entry was written twice
 * under all of them (about half the pages a booking's creation touched, issue 25). Now the capture trigger inserts
 * into `audit_pending`, an unlogged table with one index, and the commit trigger inserts each numbered entry into
 * `audit_entries` once and deletes the transaction's pending rows. A pending row lives only inside its transaction, so
 * the stage needs no WAL: after a crash it is empty, as it is after every commit.
 */
const HOTEL_LOCK_CLASS = 1381258821;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE UNLOGGED TABLE audit_pending (
      id bigserial PRIMARY KEY,
      hotel_id uuid NOT NULL,
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
      address text
    )`);

  // PL/pgSQL, where migration 104 wrote them in SQL: PostgreSQL (before 18) parses and plans a SQL function's body
  // again at every call from a trigger, three times per audited row; PL/pgSQL keeps its plans for the session.
  await knex.raw(`
    CREATE OR REPLACE FUNCTION audit_insert(hotel uuid, context jsonb, resource text, resource_id text, action text,
                                            before jsonb, after jsonb) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO audit_pending (hotel_id, actor_kind, actor_id, actor_role, operation, resource, resource_id, action,
                                 before, after, request_id, idempotency_key, address)
      VALUES (hotel, coalesce(context->'actor'->>'kind', 'system'),
              coalesce(context->'actor'->>'id', context->'actor'->>'name', context->'actor'->>'via'),
              context->'actor'->>'role', coalesce(context->>'operation', 'unknown'), resource, resource_id, action,
              before, after, context->>'requestId', context->>'idempotencyKey', context->>'address');
    END
    $$`);
  await knex.raw(`
    CREATE OR REPLACE FUNCTION audit_image(image jsonb, other jsonb, masked text[]) RETURNS jsonb
      LANGUAGE plpgsql IMMUTABLE AS $$
    BEGIN
      RETURN (SELECT jsonb_object_agg(f.key, CASE WHEN f.value = 'null' THEN f.value
                                                  WHEN f.key = ANY(masked) THEN '"[masked]"'::jsonb
                                                  WHEN jsonb_typeof(f.value) IN ('object', 'array')
                                                    THEN audit_mask_json(f.value)
                                                  ELSE f.value END)
                FROM jsonb_each(image) f WHERE other IS NULL OR other->f.key IS DISTINCT FROM f.value);
    END
    $$`);

  // A request whose own entries are still pending is in a transaction that changed rows: it records no request entry.
  await knex.raw(`
    CREATE OR REPLACE FUNCTION audit_record_request(hotel uuid, context jsonb) RETURNS void LANGUAGE sql AS $$
      SELECT audit_insert(hotel, context, 'request', NULL, 'request', NULL, NULL)
       WHERE NOT EXISTS (SELECT 1 FROM audit_entries WHERE hotel_id = hotel AND request_id = context->>'requestId')
         AND NOT EXISTS (SELECT 1 FROM audit_pending WHERE hotel_id = hotel AND request_id = context->>'requestId')
    $$`);

  // Fires for each pending row, in the order they were written; the first firing of a transaction (or of a batch
  // written after an earlier firing, under SET CONSTRAINTS ... IMMEDIATE) does all the work, as migration 104's did:
  // takes the commit locks of every hotel written (sorted, the realtime events' and inventory's lock), then per hotel
  // reads the head once, numbers and chains the pending rows between the firing row's id and the session's latest in
  // the order written, inserts each into the log, writes the head once, and deletes the pending rows. Other open
  // transactions' pending rows are invisible; later firings see from 'audit.numbered' that their row was handled.
  await knex.raw(`
    CREATE OR REPLACE FUNCTION audit_pending_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      newest bigint;
      hotels text[];
      hotel uuid;
      last_seq bigint;
      last_hash text;
      entry audit_entries%ROWTYPE;
      pending audit_pending%ROWTYPE;
      numbered boolean;
    BEGIN
      IF NEW.id <= coalesce(nullif(current_setting('audit.numbered', true), '')::bigint, 0) THEN
        RETURN NULL;
      END IF;
      newest := currval('audit_pending_id_seq');
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
        FOR pending IN SELECT * FROM audit_pending p
                        WHERE p.hotel_id = hotel AND p.id BETWEEN NEW.id AND newest ORDER BY p.id LOOP
          numbered := true;
          last_seq := last_seq + 1;
          entry := ROW(hotel, last_seq, clock_timestamp(), pending.actor_kind, pending.actor_id, pending.actor_role,
                       pending.operation, pending.resource, pending.resource_id, pending.action, pending.before,
                       pending.after, pending.request_id, pending.idempotency_key, pending.address, last_hash, NULL);
          last_hash := audit_entry_hash(entry);
          entry.hash := last_hash;
          INSERT INTO audit_entries VALUES (entry.*);
        END LOOP;
        IF numbered THEN
          INSERT INTO audit_heads (hotel_id, last_seq, last_hash) VALUES (hotel, last_seq, last_hash)
            ON CONFLICT (hotel_id) DO UPDATE SET last_seq = EXCLUDED.last_seq, last_hash = EXCLUDED.last_hash;
        END IF;
      END LOOP;
      DELETE FROM audit_pending WHERE id BETWEEN NEW.id AND newest;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE CONSTRAINT TRIGGER audit_pending_commit AFTER INSERT ON audit_pending
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_pending_commit()`);

  // Entries arrive numbered now: nothing may update one, the commit trigger included; only a head moves.
  await knex.raw('DROP TRIGGER audit_entries_commit ON audit_entries');
  await knex.raw('DROP FUNCTION audit_entries_commit()');
  await knex.raw(`
    CREATE OR REPLACE FUNCTION audit_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF pg_trigger_depth() > 1 AND TG_TABLE_NAME = 'audit_heads' THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'the audit log is append-only: % cannot be updated', TG_TABLE_NAME USING ERRCODE = '42501';
    END
    $$`);
  await knex.raw('ALTER TABLE audit_entries ALTER COLUMN seq DROP DEFAULT');
  await knex.raw('DROP SEQUENCE audit_entries_pending_seq');
}

export async function down(): Promise<void> {
  throw new Error('forward-only: the audit log is kept');
}
