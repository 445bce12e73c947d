import { setTimeout as delay } from 'node:timers/promises';
import { YooKassaError, YooKassaRequestError, YooKassaUnavailableError } from './errors';
import type {
  CapturePaymentOptions,
  CreatePaymentRequest,
  CreateRefundRequest,
  YooKassaCredentials,
  YooKassaErrorBody,
  YooKassaPayment,
  YooKassaRefund,
} from './types';

export interface YooKassaClientOptions {
  /** The API root, e.g. https://api.yookassa.ru/v3 (config.yookassa.apiUrl). */
  baseUrl: string;
  /** One attempt's limit, answer body included. */
  timeoutMs?: number;
  /** How many times a retryable failure is repeated (with the same idempotence key) before it is thrown. */
  retries?: number;
  fetch?: typeof globalThis.fetch;
}

export interface YooKassaClient {
  createPayment(
    credentials: YooKassaCredentials,
    request: CreatePaymentRequest,
    idempotenceKey: string,
  ): Promise<YooKassaPayment>;
  getPayment(credentials: YooKassaCredentials, paymentId: string): Promise<YooKassaPayment>;
  capturePayment(
    credentials: YooKassaCredentials,
    paymentId: string,
    idempotenceKey: string,
    options?: CapturePaymentOptions,
  ): Promise<YooKassaPayment>;
  cancelPayment(credentials: YooKassaCredentials, paymentId: string, idempotenceKey: string): Promise<YooKassaPayment>;
  createRefund(
    credentials: YooKassaCredentials,
    request: CreateRefundRequest,
    idempotenceKey: string,
  ): Promise<YooKassaRefund>;
  getRefund(credentials: YooKassaCredentials, refundId: string): Promise<YooKassaRefund>;
}

/** YooKassa keeps keys up to this length; a longer one would be refused on every attempt. */
export const MAX_IDEMPOTENCE_KEY_LENGTH = 64;
const FIRST_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 2_000;

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  idempotenceKey?: string;
}

export function createYooKassaClient({
  baseUrl,
  timeoutMs = 10_000,
  retries = 2,
  fetch = globalThis.fetch,
}: YooKassaClientOptions): YooKassaClient {
  const root = baseUrl.replace(/\/+$/, '');

  async function attempt<T>(credentials: YooKassaCredentials, call: Call): Promise<T> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: `Basic ${Buffer.from(`${credentials.shopId}:${credentials.secretKey}`).toString('base64')}`,
    };
    if (call.idempotenceKey !== undefined) headers['Idempotence-Key'] = call.idempotenceKey;
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    const signal = AbortSignal.timeout(timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${root}${call.path}`, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal,
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      const reason = signal.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message;
      throw new YooKassaUnavailableError(
        `YooKassa ${call.method} ${call.path} failed: ${reason}`,
        {},
        { cause: error },
      );
    }
    return interpret<T>(call, status, text);
  }

  async function send<T>(credentials: YooKassaCredentials, call: Call): Promise<T> {
    if (call.idempotenceKey !== undefined && call.idempotenceKey.length > MAX_IDEMPOTENCE_KEY_LENGTH) {
      throw new RangeError(`A YooKassa idempotence key is at most ${MAX_IDEMPOTENCE_KEY_LENGTH} characters`);
    }
    for (let attemptsLeft = retries; ; attemptsLeft--) {
      try {
        return await attempt<T>(credentials, call);
      } catch (error) {
        if (!(error instanceof YooKassaError) || !error.retryable || attemptsLeft <= 0) throw error;
        await delay(backoffMs(retries - attemptsLeft, error.retryAfterMs));
      }
    }
  }

  const post = <T>(credentials: YooKassaCredentials, path: string, body: unknown, idempotenceKey: string) =>
    send<T>(credentials, { method: 'POST', path, body, idempotenceKey });
  const get = <T>(credentials: YooKassaCredentials, path: string) => send<T>(credentials, { method: 'GET', path });

  return {
    createPayment: (credentials, request, idempotenceKey) => post(credentials, '/payments', request, idempotenceKey),
    getPayment: (credentials, paymentId) => get(credentials, `/payments/${encodeURIComponent(paymentId)}`),
    capturePayment: (credentials, paymentId, idempotenceKey, options = {}) =>
      post(credentials, `/payments/${encodeURIComponent(paymentId)}/capture`, options, idempotenceKey),
    cancelPayment: (credentials, paymentId, idempotenceKey) =>
      post(credentials, `/payments/${encodeURIComponent(paymentId)}/cancel`, {}, idempotenceKey),
    createRefund: (credentials, request, idempotenceKey) => post(credentials, '/refunds', request, idempotenceKey),
    getRefund: (credentials, refundId) => get(credentials, `/refunds/${encodeURIComponent(refundId)}`),
  };
}

/** 200 ms, 400 ms, 800 ms… or what YooKassa asked for, never above two seconds. */
function backoffMs(retryIndex: number, retryAfterMs: number | undefined): number {
  return Math.min(retryAfterMs ?? FIRST_BACKOFF_MS * 2 ** retryIndex, MAX_BACKOFF_MS);
}

function interpret<T>(call: Call, status: number, text: string): T {
  const body = parseJson(text);
  const where = `YooKassa ${call.method} ${call.path}`;
  if (status === 202) {
    throw new YooKassaUnavailableError(`${where} is still being processed`, { status, retryAfterMs: retryAfter(body) });
  }
  if (status >= 500) {
    const code = errorBody(body).code;
    throw new YooKassaUnavailableError(`${where} failed with HTTP ${status}${code ? ` ${code}` : ''}`, {
      status,
      code,
    });
  }
  if (status >= 400) throw new YooKassaRequestError(status, errorBody(body), retryAfter(body));
  if (status < 200 || status >= 300 || body === null || typeof body !== 'object') {
    throw new YooKassaUnavailableError(`${where} gave an unexpected answer: HTTP ${status}`, { status });
  }
  return body as T;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorBody(body: unknown): Partial<YooKassaErrorBody> {
  return body !== null && typeof body === 'object' ? (body as Partial<YooKassaErrorBody>) : {};
}

function retryAfter(body: unknown): number | undefined {
  const value = (errorBody(body) as { retry_after?: unknown }).retry_after;
  return typeof value === 'number' && value >= 0 ? value : undefined;
}
