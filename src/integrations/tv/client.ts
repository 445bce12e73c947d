import { buildRequest, interpretResponse, type TvEvent, type TvOutcome, type TvStay } from './wire';

export interface TvClientOptions {
  /** The whole exchange, connection to body (default 10 s). */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
  /** Called with each URL right before connecting: the private-address guard (it throws to refuse). */
  beforeConnect?: (url: string) => Promise<void>;
}

/** Longest answer body read: the TV system's words for the log, nothing more is needed. */
const MAX_BODY_CHARS = 4096;

/** Pushes stays straight to the hotel's TV server; every failure is an outcome, never a throw (but the guard's). */
export function createTvClient({ timeoutMs = 10_000, fetch = globalThis.fetch, beforeConnect }: TvClientOptions = {}) {
  async function push(serverUrl: string, event: TvEvent, stay: TvStay): Promise<TvOutcome> {
    const request = buildRequest(serverUrl, event, stay);
    await beforeConnect?.(request.url);
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal,
      });
      const body = (await response.text()).slice(0, MAX_BODY_CHARS);
      return interpretResponse(response.status, body);
    } catch (error) {
      // fetch says only "fetch failed": the cause names what failed (ECONNREFUSED, ENOTFOUND...).
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const what = cause?.code ?? cause?.message ?? (error as Error).message;
      const reason = signal.aborted ? `нет ответа за ${timeoutMs} мс` : `ошибка соединения: ${what}`;
      return { kind: 'retryable', status: null, detail: reason };
    }
  }

  return {
    checkIn: (serverUrl: string, stay: TvStay) => push(serverUrl, 'check_in', stay),
    checkOut: (serverUrl: string, stay: TvStay) => push(serverUrl, 'check_out', stay),
    push,
  };
}

export type TvClient = ReturnType<typeof createTvClient>;
