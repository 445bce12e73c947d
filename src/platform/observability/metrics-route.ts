import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type Router } from 'express';
import type { Registry } from 'prom-client';
import { UnauthorizedError } from '../errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /metrics` in Prometheus's text format. With a token, only `Authorization: Bearer <token>` reads it (compared
 * in constant time); without one it is open, for a port the load balancer does not publish.
 */
export function metricsRouter(registry: Registry, token: string | undefined): Router {
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  const router = express.Router();
  router.get('/metrics', async (req, res) => {
    if (expected && !timingSafeEqual(digest(req.get('authorization') ?? ''), expected)) throw new UnauthorizedError();
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
