import pino, { type DestinationStream, type Logger } from 'pino';
import { requestLogFields } from './observability/request-context';

export type { Logger };

/** `json` (one object a line, for log collectors) or `pretty` (coloured lines for a person at a terminal). */
export type LogFormat = 'json' | 'pretty';

export interface LoggerOptions {
  format?: LogFormat;
  /** Where JSON lines go instead of stdout (tests read them). */
  destination?: DestinationStream;
}

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

/**
 * Every line logged during a request carries its `reqId`, `userId` and `hotelId` (see request-context.ts), whichever
 * logger writes it. `pretty` needs pino-pretty, a development dependency: `npm run dev` asks for it.
 */
export function createLogger(level: string, name: string, options: LoggerOptions = {}): Logger {
  const settings = {
    name,
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    mixin: requestLogFields,
    ...(options.format === 'pretty' && {
      transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } },
    }),
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
