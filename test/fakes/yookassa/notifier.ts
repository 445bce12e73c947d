import { setTimeout as delay } from 'node:timers/promises';
import type { YooKassaNotification } from '../../../src/integrations/yookassa';

const RETRIES = 3;
const FIRST_RETRY_MS = 100;
const ATTEMPT_TIMEOUT_MS = 5_000;

export interface Notifier {
  /** Posts in the background, repeating a failed delivery (an error or a non-2xx answer) a few times. */
  send(url: string, notification: YooKassaNotification): void;
  /** Stops every delivery under way. */
  close(): void;
}

export function createNotifier(): Notifier {
  const stopping = new AbortController();

  async function deliver(url: string, body: string): Promise<void> {
    for (let retry = 0; retry <= RETRIES && !stopping.signal.aborted; retry++) {
      if (retry > 0) await delay(FIRST_RETRY_MS * 2 ** (retry - 1), undefined, { signal: stopping.signal });
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
        signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
      }).catch(() => undefined);
      await response?.body?.cancel().catch(() => undefined);
      if (response?.ok) return;
    }
  }

  return {
    send(url, notification) {
      deliver(url, JSON.stringify(notification)).catch(() => undefined);
    },
    close() {
      stopping.abort();
    },
  };
}
