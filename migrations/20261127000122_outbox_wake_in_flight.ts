import type { Knex } from 'knex';

/**
 * `outbox_wake` (migration 120) skips a wake when its workflow has two undelivered, trusting that the second reaches
 * the workflow after this commit. A relay may be signalling the first of them at that moment (it marks it delivered
 * only after Temporal answered) and go on to the second before this commit: the workflow then reads before this
 * commit, finds nothing, and the change waits for the idle poll. So the function first tries the relay's lock on the
 * workflow for the rest of the transaction (`pg_try_advisory_xact_lock` on the relay's keys,
 * src/platform/db/outbox-queue.ts). Taken: no relay can deliver the workflow's messages until this commit, and two
 * undelivered stand for this wake. Held by a relay (it delivers one message of a workflow at a time, the first): a
 * third is kept, which can only leave after this commit since it is this transaction's; a workflow never has more
 * than three waiting, so a burst is still coalesced.
 */
const RELAY_LOCKS = 1869968482;

const pending = (atLeast: number) => `(SELECT count(*) FROM (SELECT 1 FROM outbox o
                                 WHERE o.workflow_id = wake->>'workflowId' AND o.delivered_at IS NULL
                                 LIMIT ${atLeast}) AS waiting) >= ${atLeast}`;

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
        IF ${pending(2)} THEN
          RETURN false;
        END IF;
      ELSIF ${pending(3)} THEN
        RETURN false;
      END IF;`),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    outboxWake(`IF ${pending(2)} THEN
        RETURN false;
      END IF;`),
  );
}
