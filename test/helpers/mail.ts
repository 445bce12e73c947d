import type { Db } from '../../src/platform/db/knex';
import { readStackInfo } from './stack-env';
import { until } from './wait';
import { outboxWorkflowsAtRest, withTemporal } from './workflows';

export interface CaughtMessage {
  id: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; contentType: string; content: string }[];
}

function catcherUrl(): string {
  return readStackInfo().env.MAIL_CATCHER_URL;
}

export async function messagesTo(address: string): Promise<CaughtMessage[]> {
  const response = await fetch(`${catcherUrl()}/api/messages?to=${encodeURIComponent(address)}`);
  return (await response.json()) as CaughtMessage[];
}

/** Waits until `address` has received at least `count` messages, and returns them oldest first. */
export async function waitForMessages(address: string, count = 1, timeoutMs = 20_000): Promise<CaughtMessage[]> {
  let received = 0;
  return until(
    async () => {
      const messages = await messagesTo(address);
      received = messages.length;
      return received >= count && messages;
    },
    { what: () => `${count} message(s) to ${address} (got ${received})`, timeoutMs, intervalMs: 100 },
  );
}

/** The link in a message that starts with `prefix` (e.g. `http://app.test/reset-password?token=`). */
export function linkIn(message: CaughtMessage, prefix: string): string {
  const match = message.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!match) throw new Error(`no link starting with ${prefix} in: ${message.text}`);
  return match;
}

export function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token') ?? '';
}

/**
 * Everything `address` will have received from what was asked so far, which proves an e-mail was NOT sent: first its
 * resend-confirmation and forgot-password requests are handled (a request's row goes in the transaction that enqueues
 * its e-mail, if any), then every e-mail workflow of its account has finished.
 */
export async function settledMessagesTo(db: Db, address: string): Promise<CaughtMessage[]> {
  const email = address.trim().toLowerCase();
  await until(async () => !(await db('account_requests').where({ email }).first('id')), {
    what: `the account requests of ${address} handled`,
  });
  const user = (await db('users').where({ email }).first('id')) as { id: string } | undefined;
  if (user) {
    await withTemporal((client) =>
      outboxWorkflowsAtRest(db, client, (outbox) => outbox.where('workflow_id', 'like', `email:%:${user.id}:%`), {
        what: `the e-mails to ${address} sent`,
      }),
    );
  }
  return messagesTo(address);
}
