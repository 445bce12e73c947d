import type { YooKassaErrorBody } from './types';

interface YooKassaErrorDetails {
  status?: number;
  code?: string;
  parameter?: string;
  /** How long YooKassa asked to wait before repeating the request (HTTP 202 and 429). */
  retryAfterMs?: number;
}

/** A failed YooKassa call. `retryable` says whether repeating it with the same idempotence key may succeed. */
export abstract class YooKassaError extends Error {
  abstract readonly retryable: boolean;
  readonly status?: number;
  readonly code?: string;
  readonly parameter?: string;
  readonly retryAfterMs?: number;

  constructor(message: string, details: YooKassaErrorDetails = {}, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    Object.assign(this, details);
  }
}

/**
 * YooKassa refused the request (4xx): repeating it unchanged gives the same answer, except 429 too_many_requests,
 * which passes with time.
 */
export class YooKassaRequestError extends YooKassaError {
  readonly retryable: boolean;

  constructor(status: number, body: Partial<YooKassaErrorBody>, retryAfterMs?: number) {
    const code = body.code ?? `http_${status}`;
    const parameter = body.parameter ? ` (parameter ${body.parameter})` : '';
    super(`YooKassa refused the request, HTTP ${status} ${code}: ${body.description ?? 'no description'}${parameter}`, {
      status,
      code,
      parameter: body.parameter,
      retryAfterMs,
    });
    this.retryable = status === 429;
  }
}

/**
 * YooKassa did not give a final answer: a 5xx, a network failure, a timeout, or HTTP 202 (still processing). The
 * outcome is unknown, so the request must be repeated with the same idempotence key.
 */
export class YooKassaUnavailableError extends YooKassaError {
  readonly retryable = true;
}
