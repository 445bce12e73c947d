import type { NextFunction, Request, Response } from 'express';
import type { TTLockErrorBody } from '../../../src/integrations/ttlock';

/** A refusal in TTLock's shape: HTTP 200 and `{ errcode, errmsg, description }`. */
export class FakeApiError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
  ) {
    super(errmsg);
  }

  body(): TTLockErrorBody {
    return { errcode: this.errcode, errmsg: this.errmsg, description: this.errmsg };
  }
}

/** A test control used wrongly: HTTP 400, so that the test, not the client under test, fails. */
export class ControlError extends Error {}

/** The codes and messages of https://euopen.ttlock.com/doc/api/error. */
export const invalidParameter = () => new FakeApiError(-3, 'Invalid Parameter.');
export const invalidClientId = () => new FakeApiError(10000, 'invalid client_id');
export const invalidClient = () => new FakeApiError(10001, 'invalid client');
export const invalidToken = () => new FakeApiError(10003, 'invalid token');
export const invalidGrant = () => new FakeApiError(10004, 'invalid grant');
export const invalidAccount = () => new FakeApiError(10007, 'invalid account or invalid password');
export const invalidRefreshToken = () => new FakeApiError(10011, 'invalid refresh_token');
export const dateNotCurrent = () => new FakeApiError(80000, 'date must be current time');
export const lockNotFound = () => new FakeApiError(-1003, 'Lock does not exist');
export const otherCloud = () => new FakeApiError(30008, 'Please use the correct server for your account');
/** TTLock documents no code for an account without a hotel; the fake's choice, which the client must not rely on. */
export const hotelNotCreated = () => new FakeApiError(-4064, 'Hotel not created');

/** Express's last handler. */
export function sendError(error: unknown, _request: Request, response: Response, _next: NextFunction): void {
  if (error instanceof FakeApiError) {
    response.json(error.body());
  } else if (error instanceof ControlError) {
    response.status(400).json({ error: error.message });
  } else {
    // A fault of the fake itself, said plainly so that a test does not take it for TTLock's.
    response.status(500).json({ errcode: 90000, errmsg: `The fake TTLock failed: ${(error as Error).message}` });
  }
}
