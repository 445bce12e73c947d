import type { Knex } from 'knex';

/**
 * `outbox_wake` (migration 120) skips a wake when its workflow has two undelivered, trusting that the second reaches
 * the workflow after this commit. A relay may already be signalling those two (it marks them delivered only after
 * Temporal answered): the workflow then reads before this commit, finds nothing, and the change waited for the idle
 * poll. So the function first takes the relay's lock on the workflow for the rest of the transaction
 * (`pg_try_advisory_xact_lock` on the relay's keys, src/platform/db/outbox-queue.ts): taken, no relay is delivering
 * the workflow's messages and none can until this commit, and two undelivered may stand for this wake; held by a
 * relay, the wake is queued whatever is waiting.
 */
const RELAY_LOCKS = 1869968482;

const PENDING_TWO = `(SELECT count(*) FROM (SELECT 1 FROM outbox o
                                 WHERE o.workflow_id = wake->>'workflowId' AND o.delivered_at IS NULL
                                 LIMIT 2) AS waiting) >= 2`;

const outboxWake = (skipWhen: string) => `
    CREATE OR REPLACE FUNCTION outbox_wake(wake jsonb) RETURNS boolean LANGUAGE plpgsql AS $$
    BEGIN
      ${skipWhen}
      INSERT INTO outbox (message) VALUES (wake);
      PERFORM pg_notify('outbox', '');
      RETURN true;
    END
    $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    outboxWake(`IF pg_try_advisory_xact_lock(${RELAY_LOCKS}, hashtext(wake->>'workflowId')) THEN
        IF ${PENDING_TWO} THEN
          RETURN false;
        END IF;
      END IF;`),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    outboxWake(`IF ${PENDING_TWO} THEN
        RETURN false;
      END IF;`),
  );
}
