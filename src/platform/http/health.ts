import express, { type Router } from 'express';
import type { DbOrTrx } from '../db/knex';
import { outboxBacklog } from '../db/outbox-queue';

/** A check answers, or throws when its dependency is unavailable; it may answer with a `CheckReport`. */
export type ReadinessChecks = Record<string, () => Promise<unknown>>;

/** A check's answer with details for `/ready`; `status` other than 'ok' makes the process not ready. */
export class CheckReport {
  constructor(
    readonly status: string,
    readonly detail: Record<string, unknown>,
  ) {}
}

/**
 * The outbox keeps up: its backlog in the details, and 'lagging' (not ready) once the oldest undelivered message is
 * older than `maxLagSeconds`, which says the relay or Temporal is not delivering.
 */
export function outboxReadiness(db: DbOrTrx, maxLagSeconds: number): () => Promise<CheckReport> {
  return async () => {
    const { pending, oldestAgeSeconds } = await outboxBacklog(db);
    const detail = { pending, oldest_age_seconds: Math.round(oldestAgeSeconds) };
    return new CheckReport(oldestAgeSeconds > maxLagSeconds ? 'lagging' : 'ok', detail);
  };
}

/**
 * `/health`: the process answers. `/ready`: every dependency it needs answers too; `checks` holds each one's status
 * and `details` what checks reported beyond it (the outbox backlog). Once `stopping` (a shutdown signal came), `/ready`
 * answers 503 `stopping` at once, so load balancers send no new requests while the process drains.
 */
export function healthRouter(checks: ReadinessChecks, stopping: () => boolean = () => false): Router {
  const router = express.Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/ready', async (_req, res) => {
    if (stopping()) {
      res.status(503).json({ status: 'stopping' });
      return;
    }
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          const answer = await check();
          return { name, status: answer instanceof CheckReport ? answer.status : 'ok', answer };
        } catch {
          return { name, status: 'unavailable', answer: undefined };
        }
      }),
    );
    const ready = results.every(({ status }) => status === 'ok');
    const details = Object.fromEntries(
      results.flatMap(({ name, answer }) => (answer instanceof CheckReport ? [[name, answer.detail]] : [])),
    );
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not_ready',
      checks: Object.fromEntries(results.map(({ name, status }) => [name, status])),
      ...(Object.keys(details).length > 0 && { details }),
    });
  });
  return router;
}
