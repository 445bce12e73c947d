import { randomUUID } from 'node:crypto';
import type { RouteDefinition } from '../../src/platform/http/route';
import { CLOSE_ACCESS_REVOKED } from '../../src/platform/realtime/staff-hub';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { compareCoverage, coverageProblems, inScope, operationKey, reportGate, type GateScope } from '../helpers/gates';
import { linkIn, tokenOf, waitForMessages } from '../helpers/mail';
import { connectStaff, startTestServer, type StaffClient, type TestServer } from '../helpers/realtime';

/**
 * Sessions gate: a credential that was revoked opens nothing, at once. Generated from the declared routes, so a
 * route added later is covered: every non-public route is called with the still-signed, unexpired access token of
 * an account that was just deactivated, deleted, reset, signed out everywhere, and of an inactive account that
 * signed in (login does not check `active`, spec rule 10); every answer must be 401, except `/api/auth/me`, which
 * keeps the spec's shape (`null`) for an account that is gone or inactive. The account's open socket is closed
 * (4003) within a second. `sessionsGate(scope)` declares the tests (once per test file): sessions.test.ts runs it on the
 * registry, test/api/modules.test.ts on the routes of a module it plugs in.
 */

const CLOSE_DEADLINE_MS = 1000;

let scope: GateScope = {};
let t: TestServer;
let owner: RegisteredHotel;
let protectedRoutes: RouteDefinition[];

/** Declares the gate's hooks and tests on `gateScope` (once per test file: the gate's state is this file's). */
export function sessionsGate(gateScope: GateScope = {}): void {
  scope = gateScope;
  beforeAll(async () => {
    t = await startTestServer({}, { modules: scope.modules });
    owner = await registerHotel(t);
    const swept = inScope(t, scope);
    protectedRoutes = t.routes.filter((route) => route.access.kind !== 'public' && swept(route));
  });
  afterAll(() => t.close());

  function concretePath(route: RouteDefinition): string {
    return route.path.replace(/:(\w+)/g, (_match, name: string) => (name === 'slug' ? owner.slug : randomUUID()));
  }

  /** The routes each revoked credential was refused on, by name, so each case is checked against every declared route. */
  let refusedOn: string[] = [];

  function call(route: RouteDefinition, token: string) {
    refusedOn.push(operationKey(route));
    return t.http[route.method](concretePath(route)).set(as(token)).set('Content-Type', 'application/json').send('{}');
  }

  /** Every protected route with `token`: 401, or for `/api/auth/me` the given answer. */
  async function expectLockedOut(token: string, me: 'null' | 401): Promise<string[]> {
    refusedOn = [];
    const problems = protectedRoutes.length === 0 ? ['no route to call'] : [];
    for (const route of protectedRoutes) {
      const response = await call(route, token);
      const isMe = route.path === '/api/auth/me';
      const expected = isMe && me === 'null' ? 200 : 401;
      if (response.status !== expected || (isMe && me === 'null' && response.body !== null)) {
        problems.push(
          `${route.method.toUpperCase()} ${route.path}: ${response.status} ${JSON.stringify(response.body)}`,
        );
      }
    }
    // Every declared route that needs a credential, by name: a module dropped from the registry fails here.
    const coverage = compareCoverage(protectedRoutes.map(operationKey), refusedOn);
    covered = coverage.figure;
    return [...problems, ...coverageProblems(coverage, scope.modules)];
  }

  /** Resolves with the close code, or rejects when the socket is still open after the deadline. */
  function closedWithin(client: StaffClient, ms: number): Promise<number> {
    return Promise.race([
      client.closed.then(({ code }) => code),
      new Promise<number>((_resolve, reject) =>
        setTimeout(() => reject(new Error(`socket still open ${ms} ms after the revocation`)), ms),
      ),
    ]);
  }

  async function openSocket(token: string): Promise<StaffClient> {
    const client = await connectStaff(t.wsUrl, token);
    await client.next((message) => message.type === 'connected');
    return client;
  }

  const ownerCall = (method: 'patch' | 'delete', path: string) =>
    t.http[method](`/api/hotels/${owner.slug}${path}`).set(as(owner.accessToken));

  let checks = 0;
  let covered = '';
  const record = (problems: string[]) => {
    checks += protectedRoutes.length;
    return problems;
  };

  describe('revoked credentials open nothing', () => {
    it('a deactivated member: every route 401 (me: null), socket closed, and reactivation does not revive the token', async () => {
      const manager = await addStaff(t, owner, 'manager');
      const socket = await openSocket(manager.accessToken);
      await ownerCall('patch', `/users/${manager.id}`).send({ active: false }).expect(200);
      expect(await closedWithin(socket, CLOSE_DEADLINE_MS)).toBe(CLOSE_ACCESS_REVOKED);
      expect(record(await expectLockedOut(manager.accessToken, 'null'))).toEqual([]);
      // The original backdoor: a deactivated manager creating a new active account.
      await t.http
        .post(`/api/hotels/${owner.slug}/users`)
        .set(as(manager.accessToken))
        .send({
          name: 'Backdoor',
          email: `backdoor-${randomUUID()}@example.test`,
          role: 'manager',
          password: 'pass1word',
        })
        .expect(401);
      await ownerCall('patch', `/users/${manager.id}`).send({ active: true }).expect(200);
      expect(record(await expectLockedOut(manager.accessToken, 401))).toEqual([]);
    });

    it('a deleted member: every route 401 (me: null), socket closed', async () => {
      const receptionist = await addStaff(t, owner, 'receptionist');
      const socket = await openSocket(receptionist.accessToken);
      await ownerCall('delete', `/users/${receptionist.id}`).expect(200);
      expect(await closedWithin(socket, CLOSE_DEADLINE_MS)).toBe(CLOSE_ACCESS_REVOKED);
      expect(record(await expectLockedOut(receptionist.accessToken, 'null'))).toEqual([]);
    });

    it('a password reset: tokens issued before are 401, socket closed; a sign-in right after works', async () => {
      const hotel = await registerHotel(t);
      const socket = await openSocket(hotel.accessToken);
      await t.http.post('/api/auth/forgot-password').send({ email: hotel.email }).expect(200);
      const [, reset] = await waitForMessages(hotel.email, 2);
      const token = tokenOf(linkIn(reset, 'http://app.test/reset-password?token='));
      await t.http.post('/api/auth/reset-password').send({ token, password: 'brandnew1' }).expect(200);
      expect(await closedWithin(socket, CLOSE_DEADLINE_MS)).toBe(CLOSE_ACCESS_REVOKED);
      expect(record(await expectLockedOut(hotel.accessToken, 401))).toEqual([]);
      // Within the same second as the revocation: the version, not the clock, decides.
      const login = await t.http
        .post('/api/auth/login')
        .send({ email: hotel.email, password: 'brandnew1' })
        .expect(200);
      await t.http.get(`/api/hotels/${hotel.slug}`).set(as(login.body.access_token)).expect(200);
    });

    it('log out everywhere: every token issued so far is 401 and every refresh session ends', async () => {
      const member = await addStaff(t, owner, 'accountant');
      // A second session; a failed sign-in would leave `Bearer undefined`, refused whatever the revocation did.
      const second = await t.http
        .post('/api/auth/login')
        .send({ email: member.email, password: member.password })
        .expect(200);
      expect(second.body.access_token).toEqual(expect.any(String));
      await t.http.get(`/api/hotels/${owner.slug}`).set(as(second.body.access_token)).expect(200);
      const cookie = String(second.headers['set-cookie']).split(';')[0];
      await t.http.post('/api/auth/refresh').set('Cookie', cookie).expect(200);
      const socket = await openSocket(member.accessToken);
      await t.http.post('/api/auth/logout-everywhere').set(as(member.accessToken)).expect(200, { ok: true });
      expect(await closedWithin(socket, CLOSE_DEADLINE_MS)).toBe(CLOSE_ACCESS_REVOKED);
      expect(record(await expectLockedOut(second.body.access_token, 401))).toEqual([]);
      await t.http.post('/api/auth/refresh').set('Cookie', cookie).expect(401);
    });

    it('an inactive account that signs in gets a token that opens nothing (me: null), and no socket', async () => {
      const security = await addStaff(t, owner, 'security');
      await ownerCall('patch', `/users/${security.id}`).send({ active: false }).expect(200);
      const login = await t.http
        .post('/api/auth/login')
        .send({ email: security.email, password: security.password })
        .expect(200);
      expect(record(await expectLockedOut(login.body.access_token, 'null'))).toEqual([]);
      await expect(connectStaff(t.wsUrl, login.body.access_token)).rejects.toThrow('handshake refused: 401');
      // Public routes keep their spec answers.
      await t.http.post('/api/auth/logout').expect(200, { ok: true });
      if (!scope.only) {
        reportGate(
          'sessions',
          `${checks} revoked-token calls on ${protectedRoutes.length} routes (${covered} covered), all refused`,
        );
      }
    });
  });
}
