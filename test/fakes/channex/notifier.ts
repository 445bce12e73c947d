import type { Delivery, Property, Webhook } from './state';

const ATTEMPT_TIMEOUT_MS = 5_000;

/**
 * Posts webhook notifications in the background, one attempt each, in the order sent per property (so a test's
 * order is the order they arrive); every attempt, failed or not, is kept in the property's deliveries.
 */
export class Notifier {
  private readonly stopping = new AbortController();
  private readonly queues = new Map<string, Promise<void>>();

  send(property: Property, webhook: Webhook, revisionId: string, event: string, body: unknown, at: () => string) {
    const previous = this.queues.get(property.id) ?? Promise.resolve();
    const next = previous.then(async () => {
      if (this.stopping.signal.aborted) return;
      const delivery: Delivery = { revision_id: revisionId, event, url: webhook.callback_url, at: at(), status: null };
      try {
        const response = await fetch(webhook.callback_url, {
          method: 'POST',
          headers: { ...webhook.headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.any([this.stopping.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
        });
        await response.body?.cancel().catch(() => undefined);
        delivery.status = response.status;
      } catch (error) {
        delivery.error = (error as Error).message;
      }
      property.deliveries.push(delivery);
    });
    this.queues.set(property.id, next);
  }

  /** Resolves when every notification sent so far has been attempted. */
  async settled(property: Property): Promise<void> {
    await this.queues.get(property.id);
  }

  close(): void {
    this.stopping.abort();
  }
}
