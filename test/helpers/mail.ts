import { readStackInfo } from './stack-env';

export interface CaughtMessage {
  id: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
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
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = await messagesTo(address);
    if (messages.length >= count) return messages;
    if (Date.now() > deadline) throw new Error(`expected ${count} message(s) to ${address}, got ${messages.length}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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

/** Proves a message did NOT arrive: waits a while after the moment it would have been sent. */
export async function expectNoMessage(address: string, waitMs = 2500): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  const messages = await messagesTo(address);
  if (messages.length > 0) throw new Error(`unexpected message to ${address}: ${messages[0].subject}`);
}
