import type { NextFunction, Request, Response } from 'express';

/** Channex's error body: `{ errors: { code, title, details? } }` (details: a field's messages, for validation). */
export interface ChannexErrorBody {
  errors: { code: string; title: string; details?: Record<string, string[]> };
}

export class FakeChannexError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    title: string,
    readonly details?: Record<string, string[]>,
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

export const tooManyRequests = () => new FakeChannexError(429, 'http_too_many_requests', 'Too Many Requests');

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
  response.status(failure.status).json(failure.body());
}

function asChannexError(error: unknown): FakeChannexError {
  if (error instanceof FakeChannexError) return error;
  const { type } = error as { type?: string };
  if (type === 'entity.parse.failed') return validationError({ body: ['is not valid JSON'] });
  if (type === 'entity.too.large') return new FakeChannexError(413, 'payload_too_large', 'Payload Too Large');
  // A fault of the fake itself: said plainly, so that a test does not take it for a simulated outage.
  return new FakeChannexError(500, 'fake_failure', `The fake Channex failed: ${(error as Error).message}`);
}
