import { createHash } from 'node:crypto';
import { spawnEntryPoint, waitForApi } from '../../scripts/stack/app-processes';
import { freePort } from '../../scripts/stack/ports';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerHotel } from '../helpers/accounts';
import { readStackInfo, TEST_APP_ENV } from '../helpers/stack-env';
import { until } from '../helpers/wait';

let t: TestApp;

/** Sign-in attempts of an account in the current rate-limit window (the limiter counts them before bcrypt). */
async function loginAttempts(email: string): Promise<number> {
  const account = createHash('sha256').update(email).digest('base64url');
  const row = await t
    .db('rate_limit_counters')
    .whereLike('key', `login:account:%:${account}`)
    .sum('hits as hits')
    .first();
  return Number(row?.hits ?? 0);
}
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

describe('API process shutdown', () => {
  it('on SIGTERM finishes every in-flight request, then refuses new connections and exits 0', async () => {
    const owner = await registerHotel(t);
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const api = spawnEntryPoint(
      'src/main.ts',
      { ...process.env, ...TEST_APP_ENV, ...readStackInfo().env, PORT: String(port), LOG_LEVEL: 'silent' },
      'ignore',
    );
    try {
      await waitForApi(baseUrl, api);
      // Each sign-in spends ~200 ms in bcrypt after its attempt is counted: the signal comes once the ten are counted.
      const attemptsBefore = await loginAttempts(owner.email);
      const inFlight = Array.from({ length: 10 }, () =>
        fetch(`${baseUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: owner.email, password: owner.password }),
        }).then((response) => response.status),
      );
      await until(async () => (await loginAttempts(owner.email)) >= attemptsBefore + 10, {
        what: 'the ten sign-ins counted by the rate limiter, i.e. inside the server',
      });
      const exited = new Promise<number | null>((resolve) => api.child.once('exit', resolve));
      api.child.kill('SIGTERM');

      expect(await Promise.all(inFlight)).toEqual(Array(10).fill(200));
      expect(await exited).toBe(0);
      await expect(fetch(`${baseUrl}/health`)).rejects.toThrow();
    } finally {
      await api.stop();
    }
  });

  it('answers /ready with 503 from the signal on, for SHUTDOWN_DELAY_MS before it stops accepting', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env = { ...process.env, ...TEST_APP_ENV, ...readStackInfo().env, PORT: String(port), LOG_LEVEL: 'silent' };
    const api = spawnEntryPoint('src/main.ts', { ...env, SHUTDOWN_DELAY_MS: '3000' }, 'ignore');
    try {
      await waitForApi(baseUrl, api);
      const exited = new Promise<number | null>((resolve) => api.child.once('exit', resolve));
      api.child.kill('SIGTERM');

      // The signal is handled a moment later; from then on, 3 s of 503 before the drain.
      const ready = await until(
        async () => {
          const answer = await fetch(`${baseUrl}/ready`);
          return answer.status === 503 && answer;
        },
        { what: '/ready answering 503', timeoutMs: 3000 },
      );
      expect(await ready.json()).toEqual({ status: 'stopping' });
      // Still serving meanwhile: only readiness changed.
      expect((await fetch(`${baseUrl}/health`)).status).toBe(200);
      expect(await exited).toBe(0);
    } finally {
      await api.stop();
    }
  });
});
