import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/knex';
import { outboxBacklog, type OutboxBacklog } from '../db/outbox-queue';
import { routeTemplate } from './route-template';

/** Every metric of ours and prom-client's process metrics start with it. */
const PREFIX = 'hotel_pms_';

export interface ApiMetrics {
  registry: Registry;
  /** Times each request by method, route template and status class (`2xx`...). */
  timeRequests: RequestHandler;
  /** Where the realtime gauge reads the open sockets (the hub is built after the app). */
  countRealtimeConnections(count: () => number): void;
}

/** The part of knex's pool (tarn) the gauges read; knex types its pool as `any`. */
interface PoolCounts {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

/** A gauge without labels whose value is read at each scrape. */
function scrapedGauge(registry: Registry, name: string, help: string, read: () => number | Promise<number>): void {
  new Gauge({
    name: `${PREFIX}${name}`,
    help,
    registers: [registry],
    async collect() {
      this.set(await read());
    },
  });
}

function poolGauges(registry: Registry, db: Db): void {
  const pool = () => db.client.pool as PoolCounts | undefined;
  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: "Connections of this process's database pool, by state (used, free) and its maximum (max)",
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const counts = pool();
      this.set({ state: 'used' }, counts?.numUsed() ?? 0);
      this.set({ state: 'free' }, counts?.numFree() ?? 0);
      this.set({ state: 'max' }, counts?.max ?? 0);
    },
  });
  scrapedGauge(
    registry,
    'db_pool_pending_acquires',
    'Queries waiting for a connection of the pool',
    () => pool()?.numPendingAcquires() ?? 0,
  );
}

/** Both outbox gauges are collected together at each scrape: one query, NaN (unknown) if the database is away. */
function outboxGauges(registry: Registry, db: Db): void {
  let reading: Promise<OutboxBacklog | undefined> | undefined;
  const backlog = () =>
    (reading ??= outboxBacklog(db)
      .catch(() => undefined)
      .finally(() => {
        reading = undefined;
      }));
  scrapedGauge(
    registry,
    'outbox_pending_messages',
    'Outbox messages not yet delivered to Temporal',
    async () => (await backlog())?.pending ?? NaN,
  );
  scrapedGauge(
    registry,
    'outbox_oldest_age_seconds',
    'Age of the oldest undelivered outbox message (0 when none)',
    async () => (await backlog())?.oldestAgeSeconds ?? NaN,
  );
}

/** The API process's metrics, in a registry of its own (each test app has one). */
export function createApiMetrics(db: Db): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  poolGauges(registry, db);
  outboxGauges(registry, db);
  let realtimeConnections = () => 0;
  scrapedGauge(registry, 'realtime_connections', 'Open staff realtime sockets (/ws) on this process', () =>
    realtimeConnections(),
  );
  const requestDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'HTTP requests by method, route template and status class',
    labelNames: ['method', 'route', 'status_class'],
    registers: [registry],
  });
  return {
    registry,
    timeRequests(req, res, next) {
      const stop = requestDuration.startTimer();
      res.once('finish', () =>
        stop({ method: req.method, route: routeTemplate(req), status_class: `${Math.floor(res.statusCode / 100)}xx` }),
      );
      next();
    },
    countRealtimeConnections(count) {
      realtimeConnections = count;
    },
  };
}
