import { createTestApp, type TestApp } from '../helpers/app';
import { registrationBody } from '../helpers/accounts';
import { problem } from '../helpers/problem';

let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

describe('health', () => {
  it('/health answers while the process is up', async () => {
    await t.http.get('/health').expect(200, { status: 'ok' });
  });

  it('/ready checks the database', async () => {
    const response = await t.http.get('/ready').expect(200);
    expect(response.body).toEqual({ status: 'ready', checks: { database: 'ok' } });
  });
});

describe('OpenAPI', () => {
  it('documents every account, hotel and staff route with its schemas and access', async () => {
    const { body } = await t.http.get('/api/openapi.json').expect(200);
    expect(body.openapi).toBe('3.0.3');
    const operations = Object.entries(body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /api/auth/login',
        'POST /api/auth/register',
        'GET /api/auth/confirm-email',
        'POST /api/auth/resend-confirmation',
        'POST /api/auth/refresh',
        'POST /api/auth/logout',
        'POST /api/auth/forgot-password',
        'POST /api/auth/reset-password',
        'POST /api/auth/accept-invite',
        'GET /api/auth/me',
        'GET /api/hotels/{slug}',
        'PATCH /api/hotels/{slug}',
        'GET /api/hotels/{slug}/users',
        'POST /api/hotels/{slug}/users',
        'PATCH /api/hotels/{slug}/users/{id}',
        'DELETE /api/hotels/{slug}/users/{id}',
      ]),
    );
    const register = body.paths['/api/auth/register'].post;
    expect(register.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['hotel_name', 'address', 'contact', 'email', 'phone', 'password']),
    );
    expect(register.responses['201'].content['application/json'].schema.properties.ok).toBeDefined();
    const createStaff = body.paths['/api/hotels/{slug}/users'].post;
    expect(createStaff['x-access']).toEqual({ kind: 'hotel', roles: ['hotel_admin', 'manager'] });
    expect(createStaff.security).toEqual([{ bearerAuth: [] }]);
    expect(createStaff.responses['403']).toBeDefined();
  });

  it('serves a browsable page at /api/docs with its assets', async () => {
    const page = await t.http.get('/api/docs').expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('swagger-ui-bundle.js');
    await t.http.get('/api/docs/assets/swagger-ui-bundle.js').expect(200);
    await t.http.get('/api/docs/init.js').expect(200);
  });
});

describe('HTTP conventions', () => {
  it('unknown routes answer a JSON 404', async () => {
    const response = await t.http.get('/api/nothing-here').expect(404);
    expect(response.body).toEqual(problem(404, 'not_found', 'Маршрут не найден'));
  });

  it('413 for a body above the limit, and nothing is written', async () => {
    const body = registrationBody({ address: 'x'.repeat(200_000) });
    const response = await t.http.post('/api/auth/register').send(body).expect(413);
    expect(response.body.error).toBeDefined();
    expect(await t.db('users').where({ email: body.email }).first()).toBeUndefined();
  });

  it('echoes a well-formed X-Request-Id, or makes one', async () => {
    const echoed = await t.http.get('/health').set('X-Request-Id', 'req-123').expect(200);
    expect(echoed.headers['x-request-id']).toBe('req-123');
    const made = await t.http.get('/health').set('X-Request-Id', 'bad id with spaces').expect(200);
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers and no X-Powered-By', async () => {
    const response = await t.http.get('/health').expect(200);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeDefined();
    expect(response.headers['content-security-policy']).toBeDefined();
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('allows CORS with credentials only for the application origin', async () => {
    const allowed = await t.http
      .options('/api/auth/login')
      .set('Origin', 'http://app.test')
      .set('Access-Control-Request-Method', 'POST');
    expect(allowed.headers['access-control-allow-origin']).toBe('http://app.test');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const foreign = await t.http
      .options('/api/auth/login')
      .set('Origin', 'http://evil.test')
      .set('Access-Control-Request-Method', 'POST');
    expect(foreign.headers['access-control-allow-origin']).not.toBe('http://evil.test');
  });

  it('never answers 500 with internals for odd input', async () => {
    const odd = [
      t.http.post('/api/auth/login').send({ email: { $ne: 1 }, password: ['x'] }),
      t.http.post('/api/auth/login').set('content-type', 'text/plain').send('email=x'),
      t.http.get('/api/auth/confirm-email?token[]=a&token[]=b'),
      t.http.post('/api/auth/refresh').set('Cookie', 'refresh_token=%E0%A4%A'),
      t.http.get('/api/hotels/%E0%A4%A/users'),
    ];
    for (const response of await Promise.all(odd)) {
      expect(response.status).toBeGreaterThanOrEqual(300);
      expect(response.status).toBeLessThan(500);
      expect(JSON.stringify(response.body ?? '')).not.toMatch(/stack|SELECT|at \//);
    }
  });
});
