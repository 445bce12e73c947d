import express, { type Router } from 'express';

export type ReadinessChecks = Record<string, () => Promise<unknown>>;

/** `/health`: the process answers. `/ready`: every dependency it needs answers too. */
export function healthRouter(checks: ReadinessChecks): Router {
  const router = express.Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/ready', async (_req, res) => {
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await check();
          return [name, 'ok'] as const;
        } catch {
          return [name, 'unavailable'] as const;
        }
      }),
    );
    const ready = results.every(([, status]) => status === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) });
  });
  return router;
}
