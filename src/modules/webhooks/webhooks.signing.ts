import { createHmac, randomBytes } from 'node:crypto';

/** A signing secret as Standard Webhooks writes it: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` under the secret's key. */
function signatureWith(secret: string, content: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
}

/** The three Standard Webhooks headers of one delivery; every secret given signs it (space-separated). */
export function webhookHeaders(id: string, body: string, secrets: readonly string[], now = new Date()) {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const content = `${id}.${timestamp}.${body}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((secret) => signatureWith(secret, content)).join(' '),
  };
}

/** Stable per event and subscription: a retry is a duplicate the receiver can drop. */
export const webhookIdOf = (subscriptionId: string, seq: number) => `msg_${subscriptionId}_${seq}`;
