import { PermanentMailError } from '../mail';
import type { Db } from './knex';

/**
 * An attempt that took an e-mail on may still be talking to the relay while this long has not passed: the mailer's
 * timeouts (SMTP_TIMEOUTS in src/platform/mail.ts: 10 s to connect, 10 s for the greeting, 30 s of silence at any
 * later step) end a hanging attempt before, so a claim older than this is an attempt that died.
 */
export const LATE_AFTER = '1 minute';

/** `busy`: another attempt holds the e-mail and may still send it; look again later. */
export type ClaimedSend = 'sent' | 'already_sent' | 'in_doubt' | 'busy';

/**
 * What to do with an e-mail whose claiming attempt died between the claim and the record, so nobody knows whether
 * the relay took it: `skip` it (at most once: a guest never gets a booking e-mail twice, and may get none), or `send`
 * it again (never lost: a link sent twice is harmless, a person locked out for want of one is not).
 */
export type WhenInDoubt = 'skip' | 'send';

/**
 * Sends an e-mail once under its key, across retries and crashed workers: the claim is committed before the relay is
 * reached, and marked sent after. A send that fails gives the claim back (what failed was not accepted, so trying
 * again cannot make a second e-mail). A claim found unsent belongs to another attempt: `busy` while it may live;
 * after that, `whenInDoubt` decides.
 */
export async function sendClaimed(
  db: Db,
  key: string,
  send: () => Promise<unknown>,
  whenInDoubt: WhenInDoubt,
): Promise<ClaimedSend> {
  const claimed = await db('mail_claims').insert({ key }).onConflict('key').ignore().returning('key');
  if (claimed.length === 0) {
    const standing = (await db('mail_claims')
      .where({ key })
      .first(
        db.raw('sent_at IS NOT NULL AS sent'),
        db.raw(`claimed_at < now() - interval '${LATE_AFTER}' AS late`),
      )) as { sent: boolean; late: boolean } | undefined;
    if (standing?.sent) return 'already_sent';
    if (!standing?.late) return 'busy';
    if (whenInDoubt === 'skip') return 'in_doubt';
    // Taken over from the dead attempt; of two retries doing so at once, one wins and the other looks again later.
    const taken = await db('mail_claims')
      .where({ key })
      .whereNull('sent_at')
      .where('claimed_at', '<', db.raw(`now() - interval '${LATE_AFTER}'`))
      .update({ claimed_at: db.fn.now() })
      .returning('key');
    if (taken.length === 0) return 'busy';
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

/** What one e-mail per recipient came to: the failures by address, and whether trying again could mend any of them. */
export interface SentToEach {
  sent: number;
  failures: string[];
  retry: boolean;
}

/**
 * One e-mail to each recipient, each claimed under its own key: a recipient that fails does not stop the others, and
 * a retry sends only what is still unsent. A relay refusing an address for good is not worth a retry; a busy claim
 * (another attempt still sending) or any other failure is.
 */
export async function sendClaimedToEach<Recipient extends { email: string }>(
  db: Db,
  recipients: readonly Recipient[],
  keyOf: (recipient: Recipient) => string,
  send: (recipient: Recipient) => Promise<unknown>,
  whenInDoubt: WhenInDoubt,
): Promise<SentToEach> {
  const result: SentToEach = { sent: 0, failures: [], retry: false };
  for (const recipient of recipients) {
    try {
      const outcome = await sendClaimed(db, keyOf(recipient), () => send(recipient), whenInDoubt);
      if (outcome === 'busy') throw new Error('being sent by another attempt');
      if (outcome === 'sent') result.sent += 1;
    } catch (error) {
      result.failures.push(`${recipient.email}: ${error instanceof Error ? error.message : String(error)}`);
      result.retry ||= !(error instanceof PermanentMailError);
    }
  }
  return result;
}

/** When each of these e-mails was sent, for those sent (a claim not yet sent is in flight or in doubt). */
export function sentMailClaims(db: Db, keys: string[]): Promise<{ key: string; sent_at: Date }[]> {
  return db('mail_claims').whereIn('key', keys).whereNotNull('sent_at').select('key', 'sent_at');
}

/**
 * Claims of e-mails sent more than 30 days ago: their workflows ended long before (an account e-mail gives up after a
 * day), so no attempt will ask for them again. Claims never sent stay: they are the record of an e-mail in doubt.
 */
export async function purgeSentMailClaims(db: Db): Promise<number> {
  return db('mail_claims').where('sent_at', '<', db.raw("now() - interval '30 days'")).delete();
}
