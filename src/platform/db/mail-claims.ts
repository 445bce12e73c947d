import type { Db } from './knex';

/**
 * An attempt that took an e-mail on may still be talking to the relay while this long has not passed: the mailer's
 * timeouts (SMTP_TIMEOUTS in src/platform/mail.ts: 10 s to connect, 10 s for the greeting, 30 s of silence at any
 * later step) fail a hanging attempt well before, so a claim older than this is an attempt that died.
 */
const IN_DOUBT_AFTER = '2 minutes';

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

/**
 * Claims of e-mails sent more than 30 days ago: their workflows ended long before (an account e-mail gives up after a
 * day), so no attempt will ask for them again. Claims never sent stay: they are the record of an e-mail in doubt.
 */
export async function purgeSentMailClaims(db: Db): Promise<number> {
  return db('mail_claims').where('sent_at', '<', db.raw("now() - interval '30 days'")).delete();
}
