import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files sent with it (an invoice's PDF); one with a `cid` is shown inline where the HTML names `cid:<cid>`. */
  attachments?: { filename: string; content: Buffer; cid?: string; contentType: string }[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Milliseconds: to connect, for the server's greeting, and of silence on the connection at any later step. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** The mail server refused the message for good (an SMTP 5xx): sending it again cannot succeed. */
export class PermanentMailError extends Error {}

export function createMailer(smtpUrl: string, from: string): Mailer {
  // Bounded waits, so a relay that hangs fails the attempt (to be retried) well within the time an e-mail's claim
  // stays "being sent" (src/platform/db/mail-claims.ts); nodemailer's own defaults let one attempt hang for minutes.
  const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  return {
    async send(message) {
      try {
        await transport.sendMail({ from, ...message });
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        if (code !== undefined && code >= 500 && code < 600) {
          throw new PermanentMailError(`SMTP refused the message (${code})`, { cause: error });
        }
        throw error;
      }
    },
    close() {
      transport.close();
    },
  };
}

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => htmlEntities[char]);
}
