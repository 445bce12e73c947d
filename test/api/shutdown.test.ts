import { spawnEntryPoint, waitForApi } from '../../scripts/stack/app-processes';
import { freePort } from '../../scripts/stack/ports';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerHotel } from '../helpers/accounts';
import { readStackInfo, TEST_APP_ENV } from '../helpers/stack-env';

let t: TestApp;
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
      // Each sign-in spends ~200 ms in bcrypt, so ten of them are still running when the signal arrives.
      const inFlight = Array.from({ length: 10 }, () =>
        fetch(`${baseUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: owner.email, password: owner.password }),
        }).then((response) => response.status),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
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
      const deadline = Date.now() + 3000;
      let ready = await fetch(`${baseUrl}/ready`);
      while (ready.status !== 503 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        ready = await fetch(`${baseUrl}/ready`);
      }
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'stopping' });
      // Still serving meanwhile: only readiness changed.
      expect((await fetch(`${baseUrl}/health`)).status).toBe(200);
      expect(await exited).toBe(0);
    } finally {
      await api.stop();
    }
  });
});
