import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import Joi from 'joi';
import { WebSocket } from 'ws';
import { MODULES } from '../../src/modules/registry';
import type { HotelsService } from '../../src/modules/hotels';
import { ConfigError } from '../../src/config';
import { envSetting, SHARED_SETTINGS } from '../../src/platform/config';
import { NotFoundError } from '../../src/platform/errors';
import { defineHotelRoute, defineRoute } from '../../src/platform/http/route';
import { slugParams } from '../../src/platform/http/schemas';
import { defineModule, type ModuleConfig, type SocketContext } from '../../src/platform/modules';
import { defineHotelEvent } from '../../src/platform/realtime/events';
import { createSocketEndpoint } from '../../src/platform/realtime/socket-endpoint';
import { addStaff, as, registerHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { crossHotelGate } from '../gates/cross-hotel-gate';
import { roleMatrixGate } from '../gates/role-matrix-gate';
import { sessionsGate } from '../gates/sessions-gate';
import { startTestServer, type TestServer } from '../helpers/realtime';

/**
 * A new business area plugs in as one more entry of the registry's list: its service (built from the services it
 * names), its routes (authenticated, tenant-resolved, role-checked and documented like every other), its realtime
 * events (in the AsyncAPI document), its WebSocket endpoints and the rows a new hotel starts with. Nothing else in the application changes.
 */

const welcomed = new Set<string>();
const configsReceived: ModuleConfig[] = [];
const greetingText = Joi.object({ text: Joi.string().max(2000).required() });
const greetingSent = defineHotelEvent<{ text: string }>(
  'test_greeting_sent',
  'A greeting (test module).',
  Joi.object({ text: Joi.string().required() }),
);

const greetingsModule = defineModule({
  name: 'greetings',
  uses: ['hotels'],
  config: {
    greetingWords: envSetting(
      Joi.object({ GREETING_WORDS: Joi.string().max(40).default('Добро пожаловать') }),
      (values): string => values.GREETING_WORDS,
    ),
  },
  create: ({ config }, deps: { hotels: Pick<HotelsService, 'getHotel'> }) => {
    configsReceived.push(config);
    return {
      async greet(hotelId: string) {
        return { text: `${config.greetingWords} в «${(await deps.hotels.getHotel(hotelId)).name}»` };
      },
      allowedOrigins: (slug: string) => Promise.resolve([`https://${slug}.example`]),
    };
  },
  routes: (greetings) => [
    defineHotelRoute({
      method: 'get',
      path: '/api/hotels/:slug/greeting',
      summary: 'A greeting (test module)',
      tags: ['Greetings'],
      access: { kind: 'hotel', roles: ['hotel_admin', 'receptionist'] },
      request: { params: slugParams },
      responses: { 200: { description: 'The greeting', schema: Joi.object({ text: Joi.string().required() }) } },
      async handler({ hotel, res }) {
        res.json(await greetings.greet(hotel.id));
      },
    }),
    defineRoute<{ text: string }>({
      method: 'post',
      path: '/api/greetings/:slug/echo',
      summary: "A visitor's greeting sent back (test module)",
      tags: ['Greetings'],
      access: { kind: 'public' },
      request: { params: slugParams, body: greetingText },
      responses: { 200: { description: 'The greeting', schema: greetingText } },
      async handler({ body, res }) {
        res.json(body);
      },
    }),
  ],
  http: {
    prefix: '/api/greetings',
    bodyLimit: '1kb',
    hotelOrigins: (greetings, slug) => greetings.allowedOrigins(slug),
  },
  events: [greetingSent],
  onHotelCreated: async (_greetings, _trx, hotelId) => {
    welcomed.add(hotelId);
  },
  sockets: (greetings, context) => [greetingsSocket(greetings, context)],
});

let t: TestApp;
beforeAll(() => {
  t = createTestApp({}, { modules: [...MODULES, greetingsModule] });
});
afterAll(() => t.close());

it('serves its routes behind the same authentication, tenancy and role checks', async () => {
  const owner = await registerHotel(t);
  const greeting = await t.http.get(`/api/hotels/${owner.slug}/greeting`).set(as(owner.accessToken)).expect(200);
  expect(greeting.body.text).toMatch(/^Добро пожаловать в «Тестовый отель/);
  await t.http.get(`/api/hotels/${owner.slug}/greeting`).expect(401);
  const housekeeper = await addStaff(t, owner, 'housekeeper');
  await t.http.get(`/api/hotels/${owner.slug}/greeting`).set(as(housekeeper.accessToken)).expect(403);
  const other = await registerHotel(t);
  await t.http.get(`/api/hotels/${other.slug}/greeting`).set(as(owner.accessToken)).expect(403);
});

it('gets the rows a new hotel starts with made in the registration transaction', async () => {
  const owner = await registerHotel(t);
  expect(welcomed.has(owner.hotelId)).toBe(true);
});

it('appears in the OpenAPI and AsyncAPI documents', async () => {
  const openApi = (await t.http.get('/api/openapi.json').expect(200)).body;
  expect(openApi.paths['/api/hotels/{slug}/greeting'].get['x-access']).toEqual({
    kind: 'hotel',
    roles: ['hotel_admin', 'receptionist'],
  });
  const asyncApi = (await t.http.get('/api/asyncapi.json').expect(200)).body;
  expect(Object.keys(asyncApi.channels.staff.messages)).toContain('test_greeting_sent');
});

describe('its configuration section and the HTTP policy of its public routes', () => {
  const modules = [...MODULES, greetingsModule];

  it('reads its own variables from the environment, validated at start, and receives only them', async () => {
    const configured = createTestApp({ GREETING_WORDS: 'Здравствуйте' }, { modules });
    try {
      const owner = await registerHotel(configured);
      const greeting = await configured.http.get(`/api/hotels/${owner.slug}/greeting`).set(as(owner.accessToken));
      expect(greeting.body.text).toMatch(/^Здравствуйте в «Тестовый отель/);
      expect(configured.config).toMatchObject({ greetingWords: 'Здравствуйте' });
      expect(Object.keys(configsReceived.at(-1)!).sort()).toEqual([...SHARED_SETTINGS, 'greetingWords'].sort());
    } finally {
      await configured.close();
    }
    expect(() => createTestApp({ GREETING_WORDS: 'x'.repeat(41) }, { modules })).toThrow(ConfigError);
    expect(() => createTestApp({ GREETING_WORDS: 'x'.repeat(41) }, { modules })).toThrow(
      /GREETING_WORDS: "GREETING_WORDS" length must be less than or equal to 40/,
    );
  });

  it("applies its smaller body limit to its public routes only (413), the platform's elsewhere", async () => {
    const owner = await registerHotel(t);
    const echo = `/api/greetings/${owner.slug}/echo`;
    expect((await t.http.post(echo).send({ text: 'Привет' }).expect(200)).body).toEqual({ text: 'Привет' });
    const bloated = await t.http.post(echo).send({ text: 'x'.repeat(1500) });
    expect(bloated.status).toBe(413);
    expect(bloated.body.code).toBe('payload_too_large');
    // The same body on another route is within the platform's limit: refused by that route's schema instead.
    const elsewhere = await t.http.post('/api/auth/login').send({ email: 'x'.repeat(1500) });
    expect(elsewhere.status).toBe(400);
  });

  it('lets the origins each hotel allows call its public routes, and keeps the staff policy elsewhere', async () => {
    const owner = await registerHotel(t);
    const echo = `/api/greetings/${owner.slug}/echo`;
    const allowed = await t.http.post(echo).set('Origin', `https://${owner.slug}.example`).send({ text: 'Привет' });
    expect(allowed.headers['access-control-allow-origin']).toBe(`https://${owner.slug}.example`);
    expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();
    const app = await t.http.post(echo).set('Origin', t.config.appUrl).send({ text: 'Привет' });
    expect(app.headers['access-control-allow-origin']).toBeUndefined();
    const staff = await t.http.get(`/api/hotels/${owner.slug}/greeting`).set('Origin', t.config.appUrl);
    expect(staff.headers['access-control-allow-origin']).toBe(t.config.appUrl);
    expect(staff.headers['access-control-allow-credentials']).toBe('true');
  });
});

/** `/greetings/ws`: a message `{ hotel_id }` is answered with that hotel's greeting. */
function greetingsSocket(greetings: { greet(hotelId: string): Promise<{ text: string }> }, context: SocketContext) {
  return createSocketEndpoint({
    path: '/greetings/ws',
    name: 'greetings',
    logger: context.logger,
    maxPayload: 1024,
    authorize: async () => ({}),
    onConnection(ws) {
      ws.on('message', (data) => {
        const { hotel_id: hotelId } = JSON.parse(String(data)) as { hotel_id: string };
        void greetings.greet(hotelId).then((greeting) => ws.send(JSON.stringify(greeting)));
      });
    },
    ready: () => context.listener.ready(),
  });
}

describe('a WebSocket endpoint it declares', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({}, { modules: [...MODULES, greetingsModule] });
  });
  afterAll(() => s.close());

  it('is served on its path by the real server, answering through its service, and closed at shutdown', async () => {
    const owner = await registerHotel(s);
    const ws = new WebSocket(`${s.baseUrl.replace(/^http/, 'ws')}/greetings/ws`);
    await once(ws, 'open');
    ws.send(JSON.stringify({ hotel_id: owner.hotelId }));
    const [reply] = (await once(ws, 'message')) as [Buffer];
    expect(JSON.parse(reply.toString())).toEqual({
      text: expect.stringMatching(/^Добро пожаловать в «Тестовый отель/),
    });
    const closed = once(ws, 'close');
    await s.close();
    expect((await closed)[0]).toBe(1001);
  });
});

// ---- the gates cover a new area's records by construction -----------------------------------------------------

/**
 * A second dummy area, with records: postcards a hotel keeps (in memory), written (perhaps in reply to another) and
 * read by id. Its module declares how the gates seed one, which path parameter and body field name one, and the body
 * of its write (`fixtures`); the cross-hotel, role and session gates then sweep its routes with no gate file edited:
 * another hotel's postcard answers 404 in the path and 4xx in the body (and the caller's own 2xx), another hotel's
 * slug 403, a role outside the declared ones 403, a revoked token 401.
 */
const postcards = new Map<string, { id: string; hotelId: string; text: string }>();
const postcardSchema = Joi.object({ id: Joi.string().uuid().required(), text: Joi.string().required() });
const ROLES = ['hotel_admin', 'receptionist'] as const;

const postcardsModule = defineModule({
  name: 'postcards',
  uses: [],
  create: () => ({
    write(hotelId: string, text: string, replyTo?: string) {
      if (replyTo) this.read(hotelId, replyTo);
      const postcard = { id: randomUUID(), hotelId, text };
      postcards.set(postcard.id, postcard);
      return { id: postcard.id, text };
    },
    read(hotelId: string, id: string) {
      const postcard = postcards.get(id);
      if (postcard?.hotelId !== hotelId) throw new NotFoundError('Открытка не найдена');
      return { id, text: postcard.text };
    },
  }),
  routes: (service) => [
    defineHotelRoute<{ text: string; reply_to_id?: string }>({
      method: 'post',
      path: '/api/hotels/:slug/postcards',
      summary: 'Write a postcard (test module)',
      tags: ['Postcards'],
      access: { kind: 'hotel', roles: ROLES },
      request: {
        params: slugParams,
        body: Joi.object({ text: Joi.string().max(200).required(), reply_to_id: Joi.string().uuid() }),
      },
      responses: { 201: { description: 'The postcard', schema: postcardSchema } },
      async handler({ hotel, body, res }) {
        res.status(201).json(service.write(hotel.id, body.text, body.reply_to_id));
      },
    }),
    defineHotelRoute<unknown, unknown, { postcardId: string }>({
      method: 'get',
      path: '/api/hotels/:slug/postcards/:postcardId',
      summary: 'A postcard (test module)',
      tags: ['Postcards'],
      access: { kind: 'hotel', roles: ROLES },
      request: { params: slugParams.keys({ postcardId: Joi.string().uuid().required() }) },
      responses: { 200: { description: 'The postcard', schema: postcardSchema } },
      async handler({ hotel, params, res }) {
        res.json(service.read(hotel.id, params.postcardId));
      },
    }),
  ],
  fixtures: {
    records: { postcard: { paths: ['/api/hotels/:slug/postcards/:postcardId'], fields: ['reply_to_id'] } },
    requests: {
      body: {
        'POST /api/hotels/:slug/postcards': {
          base: (own, n) => ({ text: `Gate ${n}`, reply_to_id: own.postcard }),
          control: true,
        },
      },
    },
    async seed({ request, canary }) {
      return { postcard: (await request<{ id: string }>('/postcards', { body: { text: `Postcard ${canary}` } })).id };
    },
  },
});

describe('the gates, on an area plugged in with records', () => {
  const scope = { modules: [...MODULES, postcardsModule], only: [postcardsModule] };
  describe('cross-hotel', () => crossHotelGate(scope));
  describe('role matrix', () => roleMatrixGate(scope));
  describe('sessions', () => sessionsGate(scope));
});
