import express, { type Request, type Router } from 'express';
import { ControlError } from './errors';
import type { FakeLock, FakeTTLockState } from './state';

/** The test's levers, under /_fake (no auth, not part of TTLock). */
export function controlRoutes(state: FakeTTLockState): Router {
  const router = express.Router();
  router.use(express.json());

  router.post('/accounts', (request, response) => {
    const { clientId, clientSecret, username, password, locks = [], cloud = 'EU', hotelCreated = true } = body(request);
    for (const [name, value] of Object.entries({ clientId, clientSecret, username, password })) {
      if (typeof value !== 'string' || value === '') throw new ControlError(`${name} must be a non-empty string`);
    }
    if (state.clients.has(clientId as string) && state.clients.get(clientId as string) !== clientSecret) {
      throw new ControlError('This clientId is registered with another clientSecret');
    }
    if (!Array.isArray(locks) || !locks.every(isLock)) {
      throw new ControlError('locks must be a list of { lockId (integer), lockMac, lockAlias, ... }');
    }
    if (cloud !== 'EU' && cloud !== 'China') throw new ControlError('cloud must be EU or China');
    if (typeof hotelCreated !== 'boolean') throw new ControlError('hotelCreated must be a boolean');
    const uid = state.register(
      clientId as string,
      clientSecret as string,
      username as string,
      password as string,
      locks as FakeLock[],
      { cloud, hotelCreated },
    );
    response.json({ uid });
  });

  router.post('/clock', (request, response) => {
    const advanceMs: unknown = body(request).advance_ms;
    if (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs) || advanceMs < 0) {
      throw new ControlError('advance_ms must be a number of milliseconds, zero or more');
    }
    state.advanceClock(advanceMs);
    response.json({ now: new Date(state.now()).toISOString() });
  });

  return router;
}

function body(request: Request): Record<string, unknown> {
  return (request.body ?? {}) as Record<string, unknown>;
}

function isLock(value: unknown): boolean {
  const lock = value as Partial<FakeLock> | null;
  return (
    lock !== null &&
    typeof lock === 'object' &&
    Number.isSafeInteger(lock.lockId) &&
    typeof lock.lockMac === 'string' &&
    typeof lock.lockAlias === 'string'
  );
}
