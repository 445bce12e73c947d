import { Writable } from 'node:stream';
import { MODULES } from '../../src/modules/registry';
import { createLogger } from '../../src/platform/logger';
import { defineHotelRoute } from '../../src/platform/http/route';
import { slugParams } from '../../src/platform/http/schemas';
import { defineModule } from '../../src/platform/modules';
import { as, registerHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * Every line logged during a hotel request says which request, user and hotel it belongs to, whoever writes it: here
 * a module that logs with the process's root logger after a database round trip, as services and deeper code do.
 */

type LogLine = Record<string, unknown>;
const lines: LogLine[] = [];
const logger = createLogger('info', 'test', {
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  }),
});

const probeModule = defineModule({
  name: 'logProbe',
  uses: [],
  create: ({ db }) => ({
    async probe() {
      await db.raw('select 1');
      logger.info('deep in a service');
    },
  }),
  routes: (service) => [
    defineHotelRoute({
      method: 'get',
      path: '/api/hotels/:slug/log-probe',
      summary: 'Logs a line (test module)',
      tags: ['Test'],
      access: { kind: 'hotel', roles: ['hotel_admin'] },
      request: { params: slugParams },
      responses: { 204: { description: 'Logged' } },
      async handler({ res }) {
        await service.probe();
        res.status(204).end();
      },
    }),
  ],
});

let t: TestApp;
beforeAll(() => {
  t = createTestApp({}, { modules: [...MODULES, probeModule], logger });
});
afterAll(() => t.close());

const linesOf = (reqId: string) =>
  lines.filter((line) => line.reqId === reqId || (line.req as { id?: string } | undefined)?.id === reqId);

it('puts reqId, userId and hotelId on every line of a hotel request, from any logger', async () => {
  const owner = await registerHotel(t);
  const response = await t.http.get(`/api/hotels/${owner.slug}/log-probe`).set(as(owner.accessToken)).expect(204);
  const reqId = response.headers['x-request-id'];
  const request = { reqId, userId: owner.userId, hotelId: owner.hotelId };

  expect(lines).toContainEqual(expect.objectContaining({ msg: 'deep in a service', ...request }));
  // pino-http writes the request's own line once the answer is sent.
  const logged = linesOf(reqId);
  expect(logged.map((line) => line.msg)).toEqual(['deep in a service', 'request completed']);
  for (const line of logged) expect(line).toEqual(expect.objectContaining(request));
});

it('does not log probes and scrapes', async () => {
  const before = lines.length;
  for (const path of ['/health', '/ready', '/metrics']) await t.http.get(path);
  const answered = await t.http.get('/api/auth/me').expect(401);
  expect(lines.slice(before).map((line) => (line.req as { url: string }).url)).toEqual(['/api/auth/me']);
  expect(lines.slice(before)[0]).toEqual(expect.objectContaining({ reqId: answered.headers['x-request-id'] }));
});

it('logs lines outside requests without request fields', () => {
  logger.info('between requests');
  const line = lines.find((candidate) => candidate.msg === 'between requests');
  expect(line).not.toHaveProperty('reqId');
  expect(line).not.toHaveProperty('hotelId');
});
