import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { postWebhook } from '../../src/modules/webhooks/webhooks.delivery';
import { webhookSendOptions } from '../../workflows/contracts/webhooks';

/**
 * The delivery's HTTP client: a name that answers the guard with a public address and the connection with an internal
 * one (DNS rebinding) never reaches the internal one, and the refusal names no address.
 */
describe('webhook delivery client', () => {
  let server: http.Server;
  let port: number;
  let reached = 0;

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      reached += 1;
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => jest.restoreAllMocks());

  it('connects to the address the guard checked, not to a second answer of a rebinding name', async () => {
    let answers = 0;
    // The first resolution of the name is public; every later one points inside (the attacker's DNS).
    const answer = () => ((answers += 1) === 1 ? '203.0.113.9' : '127.0.0.1');
    jest.spyOn(dns.promises, 'lookup').mockImplementation((async () => [{ address: answer(), family: 4 }]) as never);
    jest.spyOn(dns, 'lookup').mockImplementation(((_host: string, options: unknown, callback: unknown) => {
      const done = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
      const address = answer();
      const all = typeof options === 'object' && (options as dns.LookupOptions).all;
      process.nextTick(() => (all ? done(null, [{ address, family: 4 }]) : done(null, address, 4)));
    }) as never);
    const result = await postWebhook(`http://rebind.example.com:${port}/hook`, {}, '{}', { allowPrivate: false });
    expect(reached).toBe(0);
    expect(result.statusCode).toBeNull();
    expect(result.error).not.toMatch(/127\.0\.0\.1|203\.0\.113/);
  }, 20_000);

  it('refuses a name resolving inside without naming the address, and a literal internal address', async () => {
    jest.spyOn(dns, 'lookup').mockImplementation(((_host: string, _options: unknown, callback: unknown) => {
      process.nextTick(() => (callback as (...args: unknown[]) => void)(null, [{ address: '10.0.0.7', family: 4 }]));
    }) as never);
    const named = await postWebhook(`http://inside.example.com:${port}/x?token=secret`, {}, '{}', {
      allowPrivate: false,
    });
    expect(named.error).toMatch(/inside\.example\.com/);
    expect(named.error).not.toMatch(/10\.0\.0\.7|token|secret/);
    const literal = await postWebhook(`http://127.0.0.1:${port}/hook`, {}, '{}', { allowPrivate: false });
    expect(literal.statusCode).toBeNull();
    expect(reached).toBe(0);
  });

  it('stops at once when the activity is cancelled, whose round must heartbeat within 10 s', async () => {
    expect(webhookSendOptions(60).heartbeatTimeout).toBe('10 seconds');
    const cancelled = new AbortController();
    cancelled.abort();
    const result = await postWebhook(`http://127.0.0.1:${port}/hook`, {}, '{}', {
      allowPrivate: true,
      cancelled: cancelled.signal,
    });
    expect(result.statusCode).toBeNull();
    expect(reached).toBe(0);
  });
});
