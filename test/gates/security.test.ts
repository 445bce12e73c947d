import { randomBytes, randomUUID } from 'node:crypto';
import dns from 'node:dns';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Writable } from 'node:stream';
import { Client } from 'minio';
import { ValidationError, type AppError } from '../../src/platform/errors';
import type { RouteDefinition } from '../../src/platform/http/route';
import { credentialHeaderNames, declaredHeaders } from '../../src/platform/http/credential-headers';
import { createLogger } from '../../src/platform/logger';
import { assertPublicDestination } from '../../src/platform/outbound';
import { as, registerHotel, registrationBody, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { getFile } from '../helpers/files';
import { reportGate } from '../helpers/gates';
import { problem } from '../helpers/problem';

/**
 * Security gate: response headers, CORS, body limits, an upload corpus, the bcrypt 72-byte ceiling and the guard
 * on outbound addresses hotels configure. Every case counts as one check in the gate's summary line.
 */

let checks = 0;
const checked = () => void checks++;

let t: TestApp;
let owner: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
});
afterAll(async () => {
  await t.close();
  reportGate('security', `${checks} checks`);
});

// ---------------------------------------------------------------------------------------------------------------
// Headers

type Response = { status: number; headers: Record<string, string | undefined> };

function expectSecurityHeaders(response: Response) {
  const csp = response.headers['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  expect(csp).toMatch(/frame-ancestors '(self|none)'/);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['x-frame-options']).toMatch(/^(SAMEORIGIN|DENY)$/);
  expect(response.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
  expect(response.headers['x-powered-by']).toBeUndefined();
}

describe('security headers', () => {
  it.each([
    ['the OpenAPI document', '/api/openapi.json', false, 200],
    ['the docs page', '/api/docs', false, 200],
    ['the docs script', '/api/docs/init.js', false, 200],
    ['a docs asset', '/api/docs/assets/swagger-ui.css', false, 200],
    ['health', '/health', false, 200],
    ['a 401', '/api/auth/me', false, 401],
    ['a 404 route', '/api/nothing-here', true, 404],
    ['a 403 (a hotel that is not ours)', '/api/hotels/no-such-hotel-slug', true, 403],
  ] as const)('on %s', async (_name, path, signedIn, status) => {
    const request = t.http.get(path);
    if (signedIn) void request.set(as(owner.accessToken));
    const response = await request;
    expect(response.status).toBe(status);
    expectSecurityHeaders(response);
    checked();
  });

  it('on an API answer and on a validation error', async () => {
    expectSecurityHeaders(await t.http.get(`/api/hotels/${owner.slug}`).set(as(owner.accessToken)).expect(200));
    const malformed = await t.http
      .post('/api/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"email": ')
      .expect(400);
    expectSecurityHeaders(malformed);
    expect(malformed.body).toEqual(problem(400, 'validation_failed', 'Некорректный запрос'));
    expectSecurityHeaders(await t.http.post('/api/auth/login').send({}).expect(400));
    checked();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// CORS

describe('CORS', () => {
  const appOrigin = () => t.config.appUrl;

  it('a preflight from APP_URL is allowed with credentials', async () => {
    const response = await t.http
      .options('/api/auth/login')
      .set('Origin', appOrigin())
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,authorization');
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(appOrigin());
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers['access-control-allow-methods']).toContain('POST');
    checked();
  });

  it('a request from APP_URL gets its origin back, with credentials, varying by Origin', async () => {
    const response = await t.http.get('/health').set('Origin', appOrigin()).expect(200);
    expect(response.headers['access-control-allow-origin']).toBe(appOrigin());
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers['vary']).toMatch(/Origin/i);
    checked();
  });

  it.each(['http://evil.test', 'https://app.test', 'http://app.test.evil.test', 'http://app.test:8080', 'null'])(
    'a preflight or request from %s gets no Access-Control-Allow-Origin',
    async (origin) => {
      const preflight = await t.http
        .options('/api/auth/login')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      const simple = await t.http.get('/api/auth/me').set('Origin', origin).set(as(owner.accessToken)).expect(200);
      expect(simple.headers['access-control-allow-origin']).toBeUndefined();
      checked();
    },
  );
});

// ---------------------------------------------------------------------------------------------------------------
// Body size

describe('body size limit', () => {
  const oversize = () => 'Я'.repeat(60 * 1024); // 120 KiB of UTF-8, above the default 100kb

  it('413 on a public JSON route, and nothing is written', async () => {
    const body = registrationBody({ hotel_name: oversize() });
    const response = await t.http.post('/api/auth/register').send(body).expect(413);
    expect(response.body).toEqual(problem(413, 'payload_too_large', 'Слишком большой запрос'));
    expectSecurityHeaders(response);
    expect(await t.db('users').where({ email: body.email }).first()).toBeUndefined();
    checked();
  });

  it('413 on a hotel route, and the hotel is unchanged', async () => {
    const before = await t.db('hotels').where({ id: owner.hotelId }).first();
    await t.http.patch(`/api/hotels/${owner.slug}`).set(as(owner.accessToken)).send({ name: oversize() }).expect(413);
    expect(await t.db('hotels').where({ id: owner.hotelId }).first()).toEqual(before);
    checked();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Upload corpus

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';

function upload(app: TestApp, content: Buffer, filename: string, contentType: string, folder?: string) {
  const request = app.http.post('/api/upload').set(as(owner.accessToken));
  if (folder) void request.query({ folder });
  return request.attach('file', content, { filename, contentType });
}

const uploadCount = async () => Number((await t.db('uploads').where({ hotel_id: owner.hotelId }).count())[0].count);

describe('upload corpus', () => {
  it.each([
    '../../../../etc/passwd.png',
    '..\\..\\windows\\win.ini.png',
    '/etc/cron.d/evil.png',
    'rooms/../../hotels/x.png',
    '%2e%2e%2f%2e%2e%2fx.png',
    '<script>alert(1)</script>.png',
  ])('a traversal or hostile file name (%j) is ignored: the stored name is ours', async (filename) => {
    const response = await upload(t, PNG, filename, 'image/png').expect(201);
    expect(response.body.key).toMatch(new RegExp(`^rooms/${UUID}\\.png$`));
    expect(response.body.url).toBe(`${t.config.cdnUrl}/${response.body.key}`);
    expect(response.body.content_type).toBe('image/png');
    const row = await t.db('uploads').where({ key: response.body.key }).first();
    expect(row).toMatchObject({ hotel_id: owner.hotelId, content_type: 'image/png' });
    checked();
  });

  it('a NUL byte in the file name makes a malformed form: 400, nothing stored', async () => {
    const before = await uploadCount();
    await upload(t, PNG, 'x.png\u0000.html', 'image/png').expect(400);
    expect(await uploadCount()).toBe(before);
    checked();
  });

  it.each(['../hotels', 'rooms/../hotels', '..', '/etc', 'rooms%2f..'])(
    'a traversal folder (%j) is 400',
    async (folder) => {
      const before = await uploadCount();
      await upload(t, PNG, 'a.png', 'image/png', folder).expect(400);
      expect(await uploadCount()).toBe(before);
      checked();
    },
  );

  it.each([
    [
      'an SVG with onload, declared as SVG',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      'x.svg',
      'image/svg+xml',
    ],
    ['an SVG with onload, declared as PNG', '<svg onload=alert(document.cookie)>', 'photo.png', 'image/png'],
    ['a PHP script named as a JPEG', "<?php system($_GET['c']); ?>", 'shell.php.jpg', 'image/jpeg'],
    ['a PHP script behind white space', "\n\n<?php echo 'x'; ?>", 'x.gif', 'image/gif'],
    [
      'an HTML page declared as an image',
      '<!doctype html><html><script>alert(1)</script></html>',
      'x.gif',
      'image/gif',
    ],
    ['an HTML page with a UTF-8 BOM', '\ufeff<html><body onload="alert(1)"></body></html>', 'x.webp', 'image/webp'],
    ['a GIF signature in the wrong place', ' GIF89a<script>alert(1)</script>', 'x.gif', 'image/gif'],
    ['a lower-case GIF signature', 'gif89a<script>alert(1)</script>', 'x.gif', 'image/gif'],
  ])('415 for %s, and nothing is stored', async (_name, content, filename, contentType) => {
    const before = await uploadCount();
    const response = await upload(t, Buffer.from(content), filename, contentType).expect(415);
    expect(response.body).toEqual(
      problem(
        415,
        'unsupported_media_type',
        'Неподдерживаемый формат файла: загрузите изображение JPEG, PNG, GIF или WebP',
      ),
    );
    expect(await uploadCount()).toBe(before);
    checked();
  });

  it('413 for an oversize file, and nothing is stored', async () => {
    const small = createTestApp({ UPLOAD_MAX_BYTES: '4096' });
    try {
      const before = await uploadCount();
      const big = Buffer.concat([Buffer.from('GIF89a'), randomBytes(64 * 1024)]);
      const response = await upload(small, big, 'big.gif', 'image/gif').expect(413);
      expect(response.body).toEqual(problem(413, 'payload_too_large', 'Файл слишком большой: допустимо не более 4 КБ'));
      expect(await uploadCount()).toBe(before);
    } finally {
      await small.close();
    }
    checked();
  });

  /*
   * Polyglots: an image followed by a page, or carrying one in its text, would be a page to whatever sniffs it. The
   * whole file must be the image its first bytes claim and nothing more, so they are refused like any non-image.
   */
  it.each([
    ['GIF89a then script', 'GIF89a/*\x00\x00*/=1;alert(document.domain)//<script>alert(1)</script>'],
    ['a PNG signature then HTML', '\x89PNG\r\n\x1a\n<html><script>alert(1)</script></html>'],
    ['a whole PNG then HTML', `${PNG.toString('latin1')}<html><script>alert(1)</script></html>`],
    [
      'a whole GIF then HTML',
      'GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02L\x01\x00;' +
        '<html><script>alert(1)</script></html>',
    ],
  ])('a polyglot (%s) is refused with 415, and nothing is stored', async (_name, content) => {
    const before = await uploadCount();
    await upload(t, Buffer.from(content, 'latin1'), 'payload.gif', 'image/gif').expect(415);
    expect(await uploadCount()).toBe(before);
    checked();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// {cdn_url}: the API serves a photo to anyone, as an image only (nosniff, a sandboxing CSP); the object store behind it
// grants anonymous callers nothing, reading included; only the service reads, lists, writes or deletes

describe('object store', () => {
  let photoUrl: string;
  let photoKey: string;
  const bucketUrl = () => `${t.config.storage.endpoint}/${t.config.storage.bucket}`;
  const storeUrl = () => `${bucketUrl()}/${photoKey}`;
  const storageClient = (secretKey = t.config.storage.secretKey) => {
    const { hostname, port } = new URL(t.config.storage.endpoint);
    const { accessKey, region } = t.config.storage;
    return new Client({
      endPoint: hostname,
      port: Number(port),
      useSSL: false,
      pathStyle: true,
      accessKey,
      secretKey,
      region,
    });
  };
  /** The photo as a browser gets it at its {cdn_url} address (the API's own in tests). */
  const servedPhoto = () => getFile(t.http, photoUrl);
  async function expectPhotoIntact() {
    const response = await servedPhoto();
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.body).toEqual(PNG);
  }

  beforeAll(async () => {
    ({ url: photoUrl, key: photoKey } = (await upload(t, PNG, 'photo.png', 'image/png').expect(201)).body);
  });

  it('serves an uploaded photo to an anonymous GET at {cdn_url}, with its bytes and type, never sniffed', async () => {
    await expectPhotoIntact();
    const response = await servedPhoto();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    checked();
  });

  it.each(['rooms/../hotels/x.png', `rooms/${randomUUID()}.png`, `rooms/${randomUUID()}.html`, 'secrets/a.png'])(
    'answers 404 for %s at {cdn_url}, never another file',
    async (key) => {
      const response = await t.http.get(`${new URL(photoUrl).pathname.replace(photoKey, '')}${key}`);
      expect([400, 404]).toContain(response.status);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      checked();
    },
  );

  it.each([
    ['read a photo from the store', () => fetch(storeUrl())],
    ['list the bucket', () => fetch(bucketUrl())],
    ['list the bucket (ListObjectsV2)', () => fetch(`${bucketUrl()}?list-type=2&prefix=rooms/`)],
    ['list the buckets', () => fetch(`${t.config.storage.endpoint}/`)],
    ['read the bucket policy', () => fetch(`${bucketUrl()}?policy`)],
    ['replace the bucket policy', () => fetch(`${bucketUrl()}?policy`, { method: 'PUT', body: '{}' })],
    [
      'overwrite a photo',
      () => fetch(storeUrl(), { method: 'PUT', body: 'GIF89a', headers: { 'Content-Type': 'image/gif' } }),
    ],
    [
      'add an object',
      () => fetch(`${bucketUrl()}/rooms/planted.html`, { method: 'PUT', body: '<script>alert(1)</script>' }),
    ],
    ['delete a photo', () => fetch(storeUrl(), { method: 'DELETE' })],
    ['delete the bucket', () => fetch(bucketUrl(), { method: 'DELETE' })],
  ])('refuses an anonymous request to %s (403), and the photo stays as it was', async (_name, send) => {
    expect((await send()).status).toBe(403);
    await expectPhotoIntact();
    checked();
  });

  it('refuses a signed request with a wrong secret', async () => {
    const forged = storageClient('not-the-secret');
    const removal = forged.removeObject(t.config.storage.bucket, photoKey);
    await expect(removal).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
    await expectPhotoIntact();
    checked();
  });

  it('lists the bucket for the service itself (the refusals above are about credentials, not a broken store)', async () => {
    const keys: string[] = [];
    for await (const item of storageClient().listObjectsV2(t.config.storage.bucket, 'rooms/', true)) {
      if (item.name) keys.push(item.name);
    }
    expect(keys).toContain(photoKey);
    checked();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Credential headers in logs: every header a route reads is declared a credential or known not to be one, and no
// credential header's value reaches a log line, on any route (the header sent to every route, shaped right or not)

/** Headers routes read that carry no credential; any other header a route declares must be a `credentialHeader`. */
const NOT_CREDENTIALS = new Set(['idempotency-key', 'x-room']);
/** A value of the right shape for each credential header (it passes validation and reaches the handler). */
const WELL_SHAPED: Record<string, () => string> = {
  'x-stay-code': () => String(10_000_000 + (randomBytes(4).readUInt32BE(0) % 90_000_000)),
  'x-order-token': () => randomBytes(32).toString('hex'),
  authorization: () => `Bearer ${randomBytes(24).toString('hex')}`,
};

describe('credential headers in logs', () => {
  const logLines: string[] = [];
  let logged: TestApp;
  beforeAll(() => {
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    logged = createTestApp({}, { logger: createLogger('info', 'gate', { destination }) });
  });
  afterAll(() => logged.close());

  /** Every header a route declares that is not known to be harmless, declared a credential or not (yet). */
  const credentials = () =>
    [
      ...new Set([
        ...credentialHeaderNames(logged.routes),
        ...logged.routes.flatMap((route) => declaredHeaders(route).map((header) => header.name)),
      ]),
    ].filter((name) => !NOT_CREDENTIALS.has(name));

  it('every header a route reads is declared: a credential, or one known to carry none', () => {
    const undeclared = logged.routes.flatMap((route) =>
      declaredHeaders(route)
        .filter((header) => !header.credential && !NOT_CREDENTIALS.has(header.name))
        .map((header) => `${route.method.toUpperCase()} ${route.path}: ${header.name}`),
    );
    expect(undeclared).toEqual([]);
    expect([...credentialHeaderNames(logged.routes)]).toEqual(
      expect.arrayContaining(['x-stay-code', 'x-order-token', 'authorization']),
    );
    checked();
  });

  it('a header a module reads past its route declaration is declared by some route', () => {
    const sources = readdirSync(path.join(__dirname, '../../src/modules'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(path.join(__dirname, '../../src/modules', file), 'utf8'));
    const read = sources.flatMap((source) =>
      [...source.matchAll(/\breq\.(?:get\(|header\(|headers\[|headers\.)'?([\w-]+)/gi)].map((match) =>
        match[1].toLowerCase(),
      ),
    );
    const declared = new Set(logged.routes.flatMap((route) => declaredHeaders(route).map((header) => header.name)));
    expect(read.filter((name) => !declared.has(name) && name !== 'authorization')).toEqual([]);
    checked();
  });

  it('no credential header value reaches the log on any route, well shaped or not', async () => {
    const leaks: string[] = [];
    for (const route of logged.routes) {
      const target = route.path.replace(':slug', owner.slug).replace(/:\w+/g, () => randomUUID());
      for (const shaped of [false, true]) {
        const values = Object.fromEntries(
          credentials().map((name) => [
            name,
            shaped && WELL_SHAPED[name] ? WELL_SHAPED[name]() : `${name}-${randomBytes(12).toString('hex')}`,
          ]),
        );
        const before = logLines.length;
        await logged.http[route.method](target)
          .set(values)
          .set('X-Room', '101')
          .send(route.method === 'get' ? undefined : {});
        // The request line is written as the answer ends; a line a handler writes later would come after it.
        const written = logLines.slice(before).join('\n');
        for (const [name, value] of Object.entries(values)) {
          const secret = name === 'authorization' ? value.slice('Bearer '.length) : value;
          if (written.includes(`"${secret}"`) || (!shaped && written.includes(secret)))
            leaks.push(`${route.method.toUpperCase()} ${route.path}: ${name}`);
        }
      }
      checked();
    }
    expect(leaks).toEqual([]);
    // Two requests on every route one after another (the sign-in routes hash a password): over a minute on a slow machine.
  }, 300_000);
});

// ---------------------------------------------------------------------------------------------------------------
// One answer on public device and guest routes: a malformed credential or slug (too long, another alphabet, a NUL
// byte, empty, missing) gets the very refusal a wrong one gets, never a 400 that tells the two apart

/** Public routes that carry no guest's or device's credential, with why; every other one declares its `oneAnswer`. */
const PUBLIC_WITHOUT_ONE_ANSWER: Record<string, string> = {
  'POST /api/auth/login': 'staff accounts: the spec’s own answers',
  'POST /api/auth/register': 'staff accounts',
  'GET /api/auth/confirm-email': 'staff accounts',
  'POST /api/auth/resend-confirmation': 'staff accounts',
  'POST /api/auth/refresh': 'staff accounts',
  'POST /api/auth/logout': 'staff accounts',
  'POST /api/auth/forgot-password': 'staff accounts',
  'POST /api/auth/reset-password': 'staff accounts',
  'POST /api/auth/accept-invite': 'staff accounts',
  'POST /api/payments/yookassa/notifications': 'no credential: what a notification names is re-read at YooKassa',
  'GET /api/agents/latest-release': 'no credential: release information for every agent',
  'GET /api/files/:folder/:name': 'no credential: the photos {cdn_url} serves to anyone',
};

interface WellFormed {
  /** Where its credentials are (as `oneAnswer.inputs` names them): each is made malformed in turn. */
  credentials: readonly string[];
  params?: Record<string, string>;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** A stay's proof of the right shape for a room no guest is in (each its own: wrong proofs are counted per room). */
const stayProof = () => ({ 'x-room': `R${randomBytes(3).toString('hex')}`, 'x-stay-code': '12345678' });

/** A widget request for a hotel no one has. */
const unknownHotel = (rest: Omit<WellFormed, 'credentials'>): WellFormed => ({
  credentials: ['params'],
  params: { slug: `nobody-${randomBytes(4).toString('hex')}` },
  ...rest,
});

/** A review link's request with a token no link has. */
const unknownLink = (rest: Omit<WellFormed, 'credentials'>): WellFormed => ({
  credentials: ['params'],
  params: { token: randomBytes(32).toString('hex') },
  ...rest,
});

/** A well-formed but wrong request of each route with one answer: its refusal, whatever is malformed in it next. */
const WELL_FORMED: Record<string, () => WellFormed> = {
  'GET /api/hotels/:slug/room-service/guest/config': () => ({
    credentials: ['params', 'headers.x-room', 'headers.x-stay-code'],
    headers: stayProof(),
  }),
  'POST /api/hotels/:slug/room-service/guest/orders': () => ({
    credentials: ['params', 'headers.x-room', 'headers.x-stay-code'],
    headers: stayProof(),
    body: { items: [{ item_id: randomUUID(), quantity: 1 }] },
  }),
  'GET /api/hotels/:slug/room-service/guest/orders': () => ({
    credentials: ['params', 'headers.x-room', 'headers.x-stay-code'],
    headers: stayProof(),
  }),
  'GET /api/hotels/:slug/room-service/guest/orders/:id': () => ({
    credentials: ['params', 'headers.x-order-token'],
    params: { id: randomUUID() },
    headers: { 'x-order-token': randomBytes(32).toString('hex') },
  }),
  'POST /api/wifi-auth/verify': () => ({
    credentials: ['headers.authorization', 'body.hotel'],
    headers: { authorization: `Bearer ${randomBytes(32).toString('hex')}` },
    body: { hotel: owner.slug, room: '101', last_name: 'Иванов' },
  }),
  ...Object.fromEntries(
    ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => [
      `${method} /tvpms`,
      () => ({ credentials: ['query.token'], query: { token: randomBytes(16).toString('hex') } }),
    ]),
  ),
  'POST /api/agents/pair': () => ({ credentials: ['body.pair_code'], body: { pair_code: 'ZZZZ2345' } }),
  'POST /api/channels/channex/webhook': () => ({
    credentials: ['headers.x-channel-intake-token'],
    headers: { 'x-channel-intake-token': randomBytes(32).toString('hex') },
    body: { event: 'booking_new', property_id: randomUUID(), payload: { revision_id: randomUUID() } },
  }),
  'GET /api/widget/:slug/config': () => unknownHotel({}),
  'GET /api/widget/:slug/availability': () =>
    unknownHotel({ query: { from: '2031-01-10', to: '2031-01-12', guests: '2' } }),
  'POST /api/widget/:slug/bookings': () =>
    unknownHotel({
      body: {
        category_id: randomUUID(),
        check_in: '2031-01-10',
        check_out: '2031-01-12',
        guest_last_name: 'Орлова',
        guest_first_name: 'Вера',
        guest_phone: '+79990000000',
      },
    }),
  'POST /api/widget/:slug/rental-bookings': () =>
    unknownHotel({
      body: {
        rental_object_id: randomUUID(),
        kind: 'daily',
        date_from: '2031-01-10',
        date_to: '2031-01-11',
        guest_name: 'Вера Орлова',
        guest_phone: '+79990000000',
      },
    }),
  'GET /api/widget/:slug/guests/lookup': () => unknownHotel({ query: { phone: '+79990000000' } }),
  'GET /api/review-links/:token': () => unknownLink({}),
  'POST /api/review-links/:token/review': () => unknownLink({ body: { overall: 5 } }),
  'POST /api/review-links/:token/opt-out': () => unknownLink({}),
};

/** Malformed values of a credential as each place carries it (a header can hold no NUL byte: HTTP refuses it). */
const MALFORMED = {
  params: ['x'.repeat(3000), 'ОТЕЛЬ', 'UPPER_case!', '%00', 'a%00b', '%2F..%2F'],
  headers: ['x'.repeat(3000), '??-ascii', '!!!@@@', '', ' '],
  values: ['x'.repeat(3000), 'ОТЕЛЬ ‼', '\u0000', 'a\u0000b', '', 42, null],
};

describe('one answer on public device and guest routes', () => {
  const publicRoutes = () => t.routes.filter((route) => route.access.kind === 'public');
  const key = (route: RouteDefinition) => `${route.method.toUpperCase()} ${route.path}`;

  it('every public route declares its one answer, or takes no credential of a guest or a device', () => {
    const gaps = publicRoutes().flatMap((route) => {
      if (PUBLIC_WITHOUT_ONE_ANSWER[key(route)]) return route.oneAnswer ? [`${key(route)}: listed as without`] : [];
      if (!route.oneAnswer) return [`${key(route)}: declares no oneAnswer`];
      return WELL_FORMED[key(route)] ? [] : [`${key(route)}: add a well-formed request to WELL_FORMED`];
    });
    expect(gaps).toEqual([]);
    checked();
  });

  type Variant = { label: string; request: WellFormed; omit?: { place: 'headers' | 'body' | 'query'; name: string } };

  /** Every malformed variant of each credential the route's oneAnswer names, the rest of the request well formed. */
  function variants(route: RouteDefinition, base: WellFormed): Variant[] {
    const inputs = base.credentials;
    const found: Variant[] = [];
    const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
    if (inputs.includes('params'))
      for (const name of pathParams)
        for (const value of MALFORMED.params)
          found.push({
            label: `:${name} = ${value.slice(0, 20)}`,
            request: { ...base, params: { ...base.params, [name]: value } },
          });
    const headerNames = declaredHeaders(route)
      .map((header) => header.name)
      .filter((name) => inputs.includes('headers') || inputs.includes(`headers.${name}`));
    for (const name of headerNames) {
      const values = name === 'authorization' ? MALFORMED.headers.map((value) => `Bearer ${value}`) : MALFORMED.headers;
      for (const value of [...values, ...(name === 'authorization' ? ['Basic abc', ''] : [])])
        found.push({
          label: `${name}: ${value.slice(0, 20)}`,
          request: { ...base, headers: { ...base.headers, [name]: value } },
        });
      found.push({ label: `no ${name}`, request: base, omit: { place: 'headers', name } });
    }
    for (const input of inputs.filter((name) => name.startsWith('body.') || name.startsWith('query.'))) {
      const [place, name] = input.split('.') as ['body' | 'query', string];
      const values =
        place === 'query' ? MALFORMED.values.filter((value) => typeof value === 'string') : MALFORMED.values;
      for (const value of values)
        found.push({
          label: `${input} = ${JSON.stringify(value)?.slice(0, 20)}`,
          request: { ...base, [place]: { ...base[place], [name]: value } },
        });
      found.push({ label: `no ${input}`, request: base, omit: { place, name } });
    }
    return found;
  }

  function send(route: RouteDefinition, { request, omit }: Pick<Variant, 'request' | 'omit'>) {
    const params: Record<string, string> = { slug: owner.slug, ...request.params };
    // A value with `%` goes as it is (an escape the sweep wants on the wire, `%00`); any other is encoded.
    const path = route.path.replace(/:(\w+)/g, (_match, name: string) =>
      params[name].includes('%') ? params[name] : encodeURIComponent(params[name]),
    );
    const without = <T extends Record<string, unknown>>(record: T | undefined, place: string) =>
      Object.fromEntries(
        Object.entries(record ?? {}).filter(([name]) => !(omit?.place === place && omit.name === name)),
      );
    const query = without(request.query, 'query') as Record<string, string>;
    const call = t.http[route.method](path)
      .query(query)
      .set(without(request.headers, 'headers') as Record<string, string>);
    return route.method === 'get' ? call : call.send(without(request.body, 'body'));
  }

  /**
   * The hotel's budgets of wrong guesses start afresh for each variant: a room name of a shape no room has shares the
   * hotel's budget of unknown rooms, and its 429 (tested where the budgets are) is not what this sweep looks at.
   */
  const forgetWrongGuesses = () => t.db('rate_limit_counters').whereLike('key', `%${owner.hotelId}%`).delete();

  it('a malformed credential or slug gets the route’s one answer, exactly as a wrong one does', async () => {
    const differing: string[] = [];
    for (const route of publicRoutes().filter((candidate) => WELL_FORMED[key(candidate)])) {
      const base = WELL_FORMED[key(route)]();
      const wrong = await send(route, { request: base });
      const expected = { status: wrong.status, body: wrong.body as unknown };
      const refusal = route.oneAnswer?.refusal() as AppError | undefined;
      if (!refusal || !isDeepStrictEqual(expected, { status: refusal.status, body: refusal.toBody() }))
        differing.push(`${key(route)}: a wrong credential gets ${wrong.status}, not the declared one answer`);
      for (const variant of variants(route, base)) {
        await forgetWrongGuesses();
        const response = await send(route, variant);
        const answer = { status: response.status, body: response.body as unknown };
        if (!isDeepStrictEqual(answer, expected))
          differing.push(
            `${key(route)} ${variant.label}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 120)}`,
          );
        checked();
      }
    }
    expect(differing).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Passwords longer than bcrypt's 72 bytes

const TOO_LONG = 'Пароль не должен быть длиннее 72 байт';
const ascii73 = 'a1' + 'x'.repeat(71);
const cyrillic80 = 'п'.repeat(40); // 40 characters, 80 bytes: counted in bytes, not characters

describe('passwords longer than 72 bytes', () => {
  it.each([
    ['73 ASCII bytes', ascii73],
    ['40 Cyrillic letters (80 bytes)', cyrillic80],
  ])('register refuses %s with 400 and creates nothing', async (_name, password) => {
    const body = registrationBody({ password });
    const response = await t.http.post('/api/auth/register').send(body).expect(400);
    expect(response.body).toEqual(problem(400, 'validation_failed', TOO_LONG));
    expect(await t.db('users').where({ email: body.email }).first()).toBeUndefined();
    checked();
  });

  it('reset-password refuses it with 400 and the link stays usable', async () => {
    const hotel = await registerHotel(t);
    const token = randomBytes(32).toString('hex');
    await t
      .db('users')
      .where({ id: hotel.userId })
      .update({ reset_token: token, reset_token_expires: new Date(Date.now() + 3600_000) });
    const before = await t.db('users').where({ id: hotel.userId }).first();
    for (const password of [ascii73, cyrillic80]) {
      const response = await t.http.post('/api/auth/reset-password').send({ token, password }).expect(400);
      expect(response.body).toEqual(problem(400, 'validation_failed', TOO_LONG));
    }
    expect(await t.db('users').where({ id: hotel.userId }).first()).toEqual(before);
    await t.http.post('/api/auth/reset-password').send({ token, password: 'brandnew1' }).expect(200);
    checked();
  });

  it('staff create refuses it with 400 and creates nothing', async () => {
    const email = uniqueEmail('longpass');
    const response = await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(as(owner.accessToken))
      .send({ name: 'Long Password', email, role: 'receptionist', password: ascii73 })
      .expect(400);
    expect(response.body).toEqual(problem(400, 'validation_failed', TOO_LONG));
    expect(await t.db('users').where({ email }).first()).toBeUndefined();
    checked();
  });

  it('accept-invite refuses it with 400 and the invitation stays open', async () => {
    const email = uniqueEmail('invitee');
    await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(as(owner.accessToken))
      .send({ name: 'Invitee', email, role: 'housekeeper' })
      .expect(201);
    const invited = await t.db('users').where({ email }).first();
    for (const password of [ascii73, cyrillic80]) {
      const response = await t.http
        .post('/api/auth/accept-invite')
        .send({ token: invited.invite_token, password })
        .expect(400);
      expect(response.body).toEqual(problem(400, 'validation_failed', TOO_LONG));
    }
    expect(await t.db('users').where({ email }).first()).toEqual(invited);
    checked();
  });

  it.each([
    ['ASCII', 'a1' + 'z'.repeat(70), 'extra'],
    ['Cyrillic', 'п'.repeat(36), 'я'],
  ])(
    'login with a 72-byte %s password plus more gets 401 (bcrypt would have matched it)',
    async (_name, password, tail) => {
      expect(Buffer.byteLength(password)).toBe(72);
      const hotel = await registerHotel(t, { password });
      const response = await t.http
        .post('/api/auth/login')
        .send({ email: hotel.email, password: password + tail })
        .expect(401);
      expect(response.body.access_token).toBeUndefined();
      expect(response.headers['set-cookie']).toBeUndefined();
      await t.http.post('/api/auth/login').send({ email: hotel.email, password }).expect(200);
      checked();
    },
  );

  it('a staff member created with a 72-byte password signs in with it, not with more', async () => {
    const email = uniqueEmail('staff72');
    const password = 'b2' + 'q'.repeat(70);
    await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(as(owner.accessToken))
      .send({ name: 'Exactly 72', email, role: 'security', password })
      .expect(201);
    await t.http
      .post('/api/auth/login')
      .send({ email, password: password + '!' })
      .expect(401);
    await t.http.post('/api/auth/login').send({ email, password }).expect(200);
    checked();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Outbound addresses hotels configure

async function refusal(hostOrUrl: string, options?: Parameters<typeof assertPublicDestination>[1]) {
  try {
    await assertPublicDestination(hostOrUrl, options);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('outbound address guard (assertPublicDestination)', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['10.1.2.3', 'частной'],
    ['172.16.0.1', 'частной'],
    ['172.31.255.255', 'частной'],
    ['192.168.1.1', 'частной'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT'],
    ['0.0.0.0', 'неопределённый'],
    ['0.1.2.3', 'неопределённый'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'зарезервированный'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['[::1]:25', 'loopback'],
    ['::', 'неопределённый'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:169.254.169.254]', 'link-local'],
    ['::ffff:10.0.0.1', 'частной'],
    ['::ffff:0:a00:1', 'частной'],
    ['::10.0.0.1', 'частной'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['fc00::1', 'частной'],
    ['fd12:3456:789a::1', 'частной'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['smtp://127.0.0.1:25', 'loopback'],
    ['smtps://user:pass@10.0.0.8:465', 'частной'],
    ['http://[::ffff:127.0.0.1]:8080/x', 'loopback'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['localhost', 'loopback'],
    ['LOCALHOST.', 'loopback'],
    ['localhost:25', 'loopback'],
  ])('refuses %s (%s) with a 400 naming it', async (host, kind) => {
    const error = await refusal(host);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(400);
    expect((error as ValidationError).message).toContain(`«${host}»`);
    expect((error as ValidationError).message).toContain(kind);
    checked();
  });

  it.each([
    '8.8.8.8',
    '203.0.113.10',
    '198.51.100.7',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '192.169.0.1',
    '11.0.0.1',
    '2001:4860:4860::8888',
    '[2606:4700:4700::1111]:465',
    '::ffff:8.8.8.8',
    'smtps://8.8.8.8:465',
  ])('accepts the public literal %s without any lookup', async (host) => {
    const lookup = jest.spyOn(dns.promises, 'lookup');
    await expect(assertPublicDestination(host)).resolves.toBeUndefined();
    expect(lookup).not.toHaveBeenCalled();
    checked();
  });

  it('resolves a name once and refuses it when ANY of its addresses is internal', async () => {
    const addresses = [
      { address: '8.8.8.8', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    const lookup = jest.spyOn(dns.promises, 'lookup').mockResolvedValue(addresses as never);
    const error = await refusal('relay.hotel.test');
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain('10.0.0.5');
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(lookup).toHaveBeenCalledWith('relay.hotel.test', expect.objectContaining({ all: true }));

    lookup.mockResolvedValue([{ address: '2001:db8::1', family: 6 }, addresses[0]] as never);
    await expect(assertPublicDestination('smtp://Relay.Hotel.Test.:587')).resolves.toBeUndefined();
    expect(lookup).toHaveBeenLastCalledWith('relay.hotel.test', expect.objectContaining({ all: true }));

    lookup.mockResolvedValue([{ address: '::ffff:192.168.0.10', family: 6 }] as never);
    expect(await refusal('relay.hotel.test')).toBeInstanceOf(ValidationError);
    checked();
  });

  it('refuses a name that does not resolve, unless told to accept it (on saving only)', async () => {
    jest.spyOn(dns.promises, 'lookup').mockRejectedValue(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
    const error = await refusal('missing.hotel.test');
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe('Не удалось найти адрес сервера «missing.hotel.test»');
    await expect(assertPublicDestination('missing.hotel.test', { allowUnresolved: true })).resolves.toBeUndefined();
    checked();
  });

  it('refuses what is not an address at all', async () => {
    for (const input of ['', '   ', 'http://', 'http://[::1', 'exa mple.com']) {
      expect(await refusal(input)).toBeInstanceOf(ValidationError);
    }
    checked();
  });

  it('allowPrivate (ALLOW_PRIVATE_OUTBOUND, development) accepts internal addresses without a lookup', async () => {
    const lookup = jest.spyOn(dns.promises, 'lookup');
    for (const host of ['127.0.0.1', '10.1.2.3', '::1', 'localhost']) {
      await expect(assertPublicDestination(host, { allowPrivate: true })).resolves.toBeUndefined();
    }
    expect(lookup).not.toHaveBeenCalled();
    checked();
  });
});

describe('hotel SMTP host (PATCH /settings)', () => {
  const settingsRow = () => t.db('hotel_settings').where({ hotel_id: owner.hotelId }).first();
  const patch = (app: TestApp, body: Record<string, unknown>) =>
    app.http.patch(`/api/hotels/${owner.slug}/settings`).set(as(owner.accessToken)).send(body);

  it.each(['127.0.0.1', '10.1.2.3', '169.254.169.254', '::1', '::ffff:127.0.0.1', '0.0.0.0', 'localhost'])(
    '400 for %s, and nothing is saved',
    async (host) => {
      const before = await settingsRow();
      const response = await patch(t, { smtp_host: host, smtp_port: 25, smtp_user: 'relay' }).expect(400);
      expect(response.body.error).toContain(`Адрес «${host}» недопустим`);
      expect(await settingsRow()).toEqual(before);
      checked();
    },
  );

  it('400 for [::1] (not even a host name), and nothing is saved', async () => {
    const before = await settingsRow();
    await patch(t, { smtp_host: '[::1]' }).expect(400);
    expect(await settingsRow()).toEqual(before);
    checked();
  });

  it.each(['203.0.113.10', '8.8.8.8'])('a public literal %s is accepted and saved', async (host) => {
    const response = await patch(t, { smtp_host: host, smtp_port: 587 }).expect(200);
    expect(response.body).toMatchObject({ smtp_host: host, smtp_port: 587 });
    expect((await settingsRow()).smtp_host).toBe(host);
    checked();
  });

  it('clearing the host (null) needs no check', async () => {
    await patch(t, { smtp_host: null }).expect(200);
    expect((await settingsRow()).smtp_host).toBeNull();
    checked();
  });

  it('with ALLOW_PRIVATE_OUTBOUND=true (development) a local relay is accepted', async () => {
    const dev = createTestApp({ ALLOW_PRIVATE_OUTBOUND: 'true' });
    try {
      expect(dev.config.allowPrivateOutbound).toBe(true);
      expect(t.config.allowPrivateOutbound).toBe(false);
      await patch(dev, { smtp_host: '127.0.0.1', smtp_port: 1025 }).expect(200);
      expect((await settingsRow()).smtp_host).toBe('127.0.0.1');
    } finally {
      await patch(t, { smtp_host: null }).expect(200);
      await dev.close();
    }
    checked();
  });
});

test('the gate ran a meaningful number of checks', () => {
  // Runs last in this file (jest keeps declaration order): a refactor that silently drops cases shows here.
  expect(checks).toBeGreaterThan(80);
});
