import pino, { type Logger } from 'pino';

export type { Logger };

/** Secrets and personal documents never reach the logs, whatever object carries them. */
const redactedPaths = [
  'password',
  '*.password',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.token',
  '*.access_token',
  '*.passport_number',
  '*.passport_series',
  '*.passport_issued_by',
  '*.passport_issue_date',
  'passport_number',
  'passport_series',
  'passport_issued_by',
  'passport_issue_date',
];

export function createLogger(level: string, name: string): Logger {
  return pino({ name, level, redact: { paths: redactedPaths, censor: '[redacted]' } });
}
