import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { YooKassaErrorBody } from '../../../src/integrations/yookassa';

/** An error answer in YooKassa's shape: `{ type: 'error', id, code, description, parameter }`. */
export class FakeApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    description: string,
    readonly parameter?: string,
  ) {
    super(description);
  }

  body(): YooKassaErrorBody {
    return { type: 'error', id: randomUUID(), code: this.code, description: this.message, parameter: this.parameter };
  }
}

export const invalidRequest = (description: string, parameter?: string) =>
  new FakeApiError(400, 'invalid_request', description, parameter);

export const notFound = (description: string) => new FakeApiError(404, 'not_found', description);

export const invalidCredentials = (description: string) =>
  new FakeApiError(401, 'invalid_credentials', description, 'Authorization');

export const internalServerError = () =>
  new FakeApiError(500, 'internal_server_error', 'Internal server error, the outcome of the request is unknown');

/** Express's last handler: every failure leaves in YooKassa's error shape. */
export function sendError(error: unknown, _request: Request, response: Response, _next: NextFunction): void {
  const failure = asApiError(error);
  response.status(failure.status).json(failure.body());
}

export function asApiError(error: unknown): FakeApiError {
  if (error instanceof FakeApiError) return error;
  if ((error as { type?: string }).type === 'entity.parse.failed') return invalidRequest('The body is not valid JSON');
  // A fault of the fake itself: said plainly, so that a test does not take it for a simulated outage.
  return new FakeApiError(500, 'internal_server_error', `The fake YooKassa failed: ${(error as Error).message}`);
}
