import type { NextFunction, Request, Response } from 'express';

/**
 * Channex's error body: `{ errors: { code, title, details? } }` (details: each field's messages for a validation
 * error, a list of messages for a bad request).
 */
type Details = Record<string, string[]> | string[];

export interface ChannexErrorBody {
  errors: { code: string; title: string; details?: Details };
}

export class FakeChannexError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    title: string,
    readonly details?: Details,
    readonly headers: Record<string, string> = {},
  ) {
    super(title);
  }

  body(): ChannexErrorBody {
    return { errors: { code: this.code, title: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export const unauthorized = () => new FakeChannexError(401, 'unauthorized', 'Unauthorized');

export const notFound = () => new FakeChannexError(404, 'resource_not_found', 'Resource Not Found');

export const validationError = (details: Record<string, string[]>) =>
  new FakeChannexError(422, 'validation_error', 'Validation Error', details);

/** A query Channex cannot read (e.g. the ARI reads' filters). */
export const badRequest = (details: string[]) => new FakeChannexError(400, 'bad_request', 'Bad Request', details);

/** The rate limit's refusal; a forced one may say when to come back (Retry-After, seconds), as a 429 may (RFC 6585). */
export const tooManyRequests = (retryAfterSeconds?: number) =>
  new FakeChannexError(
    429,
    'http_too_many_requests',
    'Too Many Requests',
    undefined,
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  );

/** A simulated outage (a control's forced fault), distinct from a fault of the fake itself. */
export const serverError = (status: number) =>
  new FakeChannexError(
    status,
    'internal_server_error',
    status === 500 ? 'Internal Server Error' : 'Service Unavailable',
  );

/** Express's last handler: every failure leaves in Channex's error shape. */
export function sendError(error: unknown, _request: Request, response: Response, _next: NextFunction): void {
  const failure = asChannexError(error);
  response.status(failure.status).set(failure.headers).json(failure.body());
}

function asChannexError(error: unknown): FakeChannexError {
  if (error instanceof FakeChannexError) return error;
  const { type } = error as { type?: string };
  if (type === 'entity.parse.failed') return validationError({ body: ['is not valid JSON'] });
  if (type === 'entity.too.large') return new FakeChannexError(413, 'payload_too_large', 'Payload Too Large');
  // A fault of the fake itself: said plainly, so that a test does not take it for a simulated outage.
  return new FakeChannexError(500, 'fake_failure', `The fake Channex failed: ${(error as Error).message}`);
}
