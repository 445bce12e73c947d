import { randomUUID } from 'node:crypto';
import { ForbiddenError } from '../../src/platform/errors';
import { HOTEL_ROLES, type Role } from '../../src/platform/http/roles';
import type { RouteDefinition } from '../../src/platform/http/route';
import { addStaff, as, registerHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { compareCoverage, coverageProblems, inScope, reportGate, type GateScope } from '../helpers/gates';

/**
 * Role matrix gate: generated from the declared routes, so every hotel route added later is covered without
 * anyone writing a test for it. For each route with `access.kind === 'hotel'` and each of the seven hotel roles,
 * a member of that role calls the route on their own hotel with random UUIDs for path ids and an empty JSON body:
 * a role outside `access.roles` gets exactly 403; a role inside gets anything but 403 (usually 400 or 404: the
 * point is that authorization is decided before validation and before the record is looked up). `roleMatrixGate(scope)`
 * declares the tests (once per test file): role-matrix.test.ts runs it on the registry, test/api/modules.test.ts on the
 * routes of a module it plugs in.
 */

type HotelRoute = RouteDefinition & { access: { kind: 'hotel'; roles: readonly Role[] } };

const routeKey = (route: Pick<RouteDefinition, 'method' | 'path'>) => `${route.method.toUpperCase()} ${route.path}`;

/**
 * Routes (and roles) for which an allowed role may still answer 403 for a business reason even with random ids.
 * Every entry says why. The gate fails when an entry names a route that no longer exists, so the list cannot rot.
 * Empty today: the services that refuse with 403 for business reasons (staff owner protection, a worker
 * reassigning a housekeeping task, assigning the hotel_admin role) look the record up or validate the body
 * first, so random ids and an empty body answer 404 or 400 before them.
 */
const EXCEPTIONS: Record<string, { roles: readonly Role[]; reason: string }> = {};

const ROLES = HOTEL_ROLES as readonly Role[];
/** What mount answers a role outside the route's roles (ForbiddenError's default message). */
const ROLE_REFUSAL = new ForbiddenError().message;

let scope: GateScope = {};
let t: TestApp;
let slug: string;
let hotelRoutes: HotelRoute[];
const tokens = new Map<Role, string>();

/** Declares the gate's hooks and tests on `gateScope` (once per test file: the gate's state is this file's). */
export function roleMatrixGate(gateScope: GateScope = {}): void {
  scope = gateScope;
  beforeAll(async () => {
    t = createTestApp({}, { modules: scope.modules });
    const swept = inScope(t, scope);
    hotelRoutes = t.routes.filter((route): route is HotelRoute => route.access.kind === 'hotel' && swept(route));
    const owner = await registerHotel(t);
    slug = owner.slug;
    tokens.set('hotel_admin', owner.accessToken);
    for (const role of ROLES.filter((r) => r !== 'hotel_admin')) {
      tokens.set(role, (await addStaff(t, owner, role)).accessToken);
    }
  });
  afterAll(() => t.close());

  /** The route's path on our hotel, every other path parameter a fresh random UUID. */
  function concretePath(route: RouteDefinition): string {
    return route.path.replace(/:(\w+)/g, (_match, name: string) => (name === 'slug' ? slug : randomUUID()));
  }

  /** How many roles called each route, by name: the sweep is compared with the declared routes, both ways. */
  const calls = new Map<string, number>();

  function call(route: RouteDefinition, token: string) {
    calls.set(routeKey(route), (calls.get(routeKey(route)) ?? 0) + 1);
    return t.http[route.method](concretePath(route)).set(as(token)).set('Content-Type', 'application/json').send('{}');
  }

  describe('role matrix', () => {
    it('declares the seven hotel roles, and every hotel route lives under a slug', () => {
      expect([...ROLES].sort()).toEqual(
        ['accountant', 'housekeeper', 'hotel_admin', 'manager', 'receptionist', 'security', 'technician'].sort(),
      );
      for (const route of hotelRoutes) {
        expect(route.path.startsWith('/api/hotels/:slug')).toBe(true);
        // A declared role that is not a hotel role would silently grant nothing (or be a typo).
        for (const role of route.access.roles) expect(ROLES).toContain(role);
      }
    });

    it('every exception names a route that exists', () => {
      const existing = new Set(t.routes.map(routeKey));
      expect(Object.keys(EXCEPTIONS).filter((key) => !existing.has(key))).toEqual([]);
    });

    it('every route × role: 403 exactly when the role is not declared', async () => {
      const mismatches: string[] = [];
      let checks = 0;
      for (const route of hotelRoutes) {
        const exception = EXCEPTIONS[routeKey(route)];
        // The roles of one route run side by side; routes one after another.
        await Promise.all(
          ROLES.map(async (role) => {
            const response = await call(route, tokens.get(role)!);
            checks++;
            const allowed = route.access.roles.includes(role);
            if (!allowed && (response.status !== 403 || response.body?.error !== ROLE_REFUSAL)) {
              // The role check's own refusal, not e.g. the foreign-hotel one.
              mismatches.push(`${routeKey(route)} as ${role}: expected 403 for the role, got ${response.status}`);
            } else if (allowed && response.status === 403 && !exception?.roles.includes(role)) {
              mismatches.push(`${routeKey(route)} as ${role}: allowed role got 403 ${JSON.stringify(response.body)}`);
            } else if (allowed && response.status >= 500) {
              mismatches.push(`${routeKey(route)} as ${role}: ${response.status} ${JSON.stringify(response.body)}`);
            }
          }),
        );
      }
      expect(mismatches).toEqual([]);
      expect(hotelRoutes.length).toBeGreaterThan(0);
      expect(checks).toBe(hotelRoutes.length * ROLES.length);
      // Every declared hotel route by name, with every role: a route the sweep left out, or a module the registry
      // dropped, fails here rather than shrinking the figure.
      const coverage = compareCoverage(
        hotelRoutes.map(routeKey),
        [...calls].filter(([, roles]) => roles === ROLES.length).map(([key]) => key),
      );
      expect(coverageProblems(coverage, scope.modules)).toEqual([]);
      if (!scope.only) {
        reportGate(
          'role-matrix',
          `${hotelRoutes.length} routes × ${ROLES.length} roles = ${checks} checks, ${coverage.figure} covered`,
        );
      }
    });

    it('the OpenAPI document states the same matrix (x-access and the description)', async () => {
      const document = (await t.http.get('/api/openapi.json').expect(200)).body as {
        paths: Record<
          string,
          Record<string, { 'x-access'?: { kind: string; roles?: string[] }; description?: string }>
        >;
      };
      const problems: string[] = [];
      for (const route of hotelRoutes) {
        const operation = document.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method];
        if (!operation) {
          problems.push(`${routeKey(route)}: not in the document`);
          continue;
        }
        const declared = [...route.access.roles].sort();
        const access = operation['x-access'];
        if (access?.kind !== 'hotel' || JSON.stringify([...(access.roles ?? [])].sort()) !== JSON.stringify(declared)) {
          problems.push(`${routeKey(route)}: x-access ${JSON.stringify(access)} but the route declares ${declared}`);
        }
        // The readable form: the description's access line lists exactly the declared roles.
        const line = /Access: staff of the hotel with role ([\w, ]+) \(and super_admin\)\./.exec(
          operation.description ?? '',
        );
        const described = line ? line[1].split(', ').sort() : undefined;
        if (JSON.stringify(described) !== JSON.stringify(declared)) {
          problems.push(
            `${routeKey(route)}: description says ${described ?? 'nothing'} but the route declares ${declared}`,
          );
        }
      }
      expect(problems).toEqual([]);
    });
  });
}
