import type { Db } from './knex';

/**
 * An attempt that took an e-mail on may still be talking to the relay while this long has not passed (the activity's
 * start-to-close timeout, 20 s, bounds the attempts Temporal waits for; the relay's own timeouts the rest).
 */
const IN_DOUBT_AFTER = '1 minute';

/** `busy`: another attempt holds the e-mail and may still send it; look again later. */
export type ClaimedSend = 'sent' | 'already_sent' | 'in_doubt' | 'busy';

/**
 * Sends an e-mail at most once under its key, across retries and crashed workers: the claim is committed before the
 * relay is reached. A send that fails gives the claim back (what failed was not accepted, so trying again cannot make
 * a second e-mail). A claim found unsent belongs to another attempt: `busy` while it may live, `in_doubt` after (a
 * worker died between the relay and the record; the e-mail is not sent again: losing one in a crash of that instant
 * is the price of never sending it twice).
 */
export async function sendClaimed(db: Db, key: string, send: () => Promise<unknown>): Promise<ClaimedSend> {
  const claimed = await db('mail_claims').insert({ key }).onConflict('key').ignore().returning('key');
  if (claimed.length === 0) {
    const standing = (await db('mail_claims')
      .where({ key })
      .first(
        db.raw('sent_at IS NOT NULL AS sent'),
        db.raw(`claimed_at < now() - interval '${IN_DOUBT_AFTER}' AS late`),
      )) as { sent: boolean; late: boolean } | undefined;
    if (standing?.sent) return 'already_sent';
    return standing?.late ? 'in_doubt' : 'busy';
  }
  try {
    await send();
  } catch (error) {
    await db('mail_claims').where({ key }).whereNull('sent_at').delete();
    throw error;
  }
  await db('mail_claims').where({ key }).update({ sent_at: db.fn.now() });
  return 'sent';
}
