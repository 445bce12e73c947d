import type supertest from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app';
import { operationKey, operationMatcher, reportGate } from '../helpers/gates';
import { until } from '../helpers/wait';
import { isMasked, NOT_AUDITED } from '../../src/platform/db/audit-tables';
import { newCanary, registerCanaryHotel, seedHotel } from '../gates/tenant-fixture';

/**
 * The audit log's contract, walked from OpenAPI: every operation that changes something (POST, PUT, PATCH, DELETE of
 * the hotel routes and of the public ones: the widget, room service, the guest's links) declares that it is recorded
 * (`x-audit`), and every such request the modules' fixtures make while seeding a hotel of every kind of record, as its
 * staff and as its guests, leaves entries in the log naming that request's operation.
 */

const CHANGING = ['post', 'put', 'patch', 'delete'] as const;
type Method = (typeof CHANGING)[number];

interface Operation {
  method: Method;
  path: string;
  operationId: string;
  'x-access': { kind: string };
  'x-audit'?: { records?: true; none?: string; caller?: string };
}

interface Sent {
  method: Method;
  url: string;
  status: number;
  requestId: string;
}

/**
 * Operations the fixtures run that change no audited row, so leave only the entry naming them: each changes only
 * machinery (a queued e-mail, a pushed command, a key kept elsewhere) or nothing.
 */
const CHANGES_NO_AUDITED_ROW = new Set<string>([]);

let t: TestApp;
let operations: Operation[];

beforeAll(async () => {
  t = createTestApp();
  const document = (await t.http.get('/api/openapi.json').expect(200)).body as {
    paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
    CHANGING.filter((method) => byMethod[method]).map((method) => ({ ...byMethod[method], method, path })),
  );
});
afterAll(() => t.close());

/** The operations that change a hotel's data: its staff's routes and the public ones. */
const hotelChanging = () => operations.filter((op) => ['hotel', 'public'].includes(op['x-access'].kind));

/** The declared operation a sent request ran (the gates' matcher: literal segments before parameters). */
function operationOf(method: Method, url: string): Operation | undefined {
  const byKey = new Map(operations.map((op) => [operationKey(op), op]));
  const match = operationMatcher(operations.map((op) => ({ method: op.method, path: operationKey(op).split(' ')[1] })));
  return byKey.get(match(method, url) ?? '');
}

/** Records every changing request `t.http` sends from now on, with its answer's status and request id. */
function recordRequests(sent: Sent[]): void {
  for (const method of CHANGING) {
    const send = t.http[method].bind(t.http) as (url: string) => supertest.Test;
    (t.http as unknown as Record<Method, (url: string) => supertest.Test>)[method] = (url: string) =>
      send(url).on('response', (res: { status: number; headers: Record<string, string> }) =>
        sent.push({ method, url, status: res.status, requestId: res.headers['x-request-id'] }),
      );
  }
}

describe('the audit contract', () => {
  it('every changing hotel and public operation declares in OpenAPI that it is recorded, or why not', () => {
    const changing = hotelChanging();
    expect(changing.length).toBeGreaterThan(150);
    const undeclared = changing.filter((op) => !op['x-audit']?.records && !op['x-audit']?.none?.trim());
    expect(undeclared.map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });

  it('every changing public operation declares in OpenAPI who calls it, as the log records it', () => {
    const publicOps = hotelChanging().filter((op) => op['x-access'].kind === 'public' && op['x-audit']?.records);
    expect(publicOps.filter((op) => !op['x-audit']?.caller).map((op) => `${op.method} ${op.path}`)).toEqual([]);
    const callerOf = (method: Method, path: string) =>
      publicOps.find((op) => op.method === method && op.path === path)?.['x-audit']?.caller;
    expect(callerOf('post', '/api/agents/pair')).toBe('agent');
    expect(callerOf('post', '/api/payments/yookassa/notifications')).toBe('provider');
    expect(callerOf('post', '/api/auth/login')).toBe('visitor');
    expect(callerOf('post', '/api/widget/{slug}/bookings')).toBe('guest');
  });

  it('every table with a hotel has its audit trigger, and every column saying personal data or a secret is masked', async () => {
    const { rows: columns } = (await t.db.raw(
      `SELECT c.table_name AS table, c.column_name AS column, c.data_type AS type
         FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
          AND (c.table_name = 'hotels' OR c.table_name IN (
                SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'hotel_id'))`,
    )) as { rows: { table: string; column: string; type: string }[] };
    const { rows: triggers } = (await t.db.raw(
      `SELECT c.relname AS table, pg_get_triggerdef(g.oid) AS definition
         FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid WHERE g.tgname = 'audit_capture'`,
    )) as { rows: { table: string; definition: string }[] };
    const maskedBy = new Map(
      triggers.map(({ table, definition }) => [
        table,
        [...definition.matchAll(/'([^']*)'/g)].map((match) => match[1]).slice(3),
      ]),
    );
    const tables = [...new Set(columns.map((column) => column.table))];
    expect(tables.filter((table) => !maskedBy.has(table) && !NOT_AUDITED.includes(table))).toEqual([]);
    const unmasked = columns
      .filter((column) => maskedBy.has(column.table) && isMasked(column))
      .filter((column) => !maskedBy.get(column.table)?.includes(column.column))
      .map((column) => `${column.table}.${column.column}`);
    expect(unmasked).toEqual([]);
    expect(maskedBy.get('personal_data_consents')).toBeDefined();
    expect(maskedBy.get('guests')).toEqual(
      expect.arrayContaining(['blacklist_reason', 'citizenship', 'phone_normalized']),
    );
  });

  it("every changing request of the modules' fixtures writes entries naming its operation", async () => {
    const sent: Sent[] = [];
    recordRequests(sent);
    const canary = newCanary();
    const hotel = await registerCanaryHotel(t, canary);
    await seedHotel(t, hotel, canary);
    const succeeded = sent.filter((request) => request.status < 300);
    const recorded = async () => {
      const rows = (await t
        .db('audit_entries')
        .whereIn(
          'request_id',
          succeeded.map((request) => request.requestId),
        )
        .select('request_id', 'operation', 'resource', 'actor_kind')) as {
        request_id: string;
        operation: string;
        resource: string;
        actor_kind: string;
      }[];
      return succeeded.map((request) => {
        const own = rows.filter((row) => row.request_id === request.requestId);
        return {
          request,
          operations: own.map((row) => row.operation),
          rows: own.some((row) => row.resource !== 'request'),
          callers: own.map((row) => row.actor_kind),
        };
      });
    };
    // A request that changed no audited row has its one entry written just after its answer.
    const found = await until(
      async () => {
        const all = await recorded();
        return all.every((entry) => entry.operations.length > 0) && all;
      },
      { what: 'entries of every request', timeoutMs: 10_000, intervalMs: 200 },
    ).catch(() => recorded());
    // A public route outside any hotel (signing in) has no hotel to record it for unless it changes a hotel's rows.
    const ofAHotel = (op: Operation | undefined) => op?.['x-access'].kind === 'hotel' || op?.path.includes('{slug}');
    const wrong = found
      .map(({ request, operations: named }) => ({
        request: `${request.method} ${request.url}`,
        operation: operationOf(request.method, request.url),
        named: [...new Set(named)],
      }))
      .filter(
        ({ operation, named }) =>
          !operation ||
          (named.length === 0 && ofAHotel(operation)) ||
          named.some((name) => name !== operation.operationId),
      )
      .map(({ request, operation, named }) => ({ request, expected: operation?.operationId, named }));
    expect(wrong).toEqual([]);
    // A public operation's entries name the caller its route declares (or the staff or user whose token it carried).
    const miscalled = found.flatMap(({ request, callers }) => {
      const operation = operationOf(request.method, request.url);
      const declared = operation?.['x-audit']?.caller;
      if (!declared) return [];
      const others = callers.filter((kind) => ![declared, 'staff', 'user'].includes(kind));
      return others.map((kind) => `${operation.operationId}: ${kind}, declared ${declared}`);
    });
    expect([...new Set(miscalled)]).toEqual([]);
    // Proof that the triggers recorded the rows: a request of an operation not known to change no audited row wrote
    // entries of rows, not only the fallback entry naming it (dropping a table's trigger makes this fail).
    const rowless = [
      ...new Set(
        found
          .filter(({ request, rows }) => !rows && request.url.includes('/hotels/'))
          .map(({ request }) => operationOf(request.method, request.url)?.operationId ?? request.url)
          .filter((operation) => !CHANGES_NO_AUDITED_ROW.has(operation)),
      ),
    ];
    expect(rowless).toEqual([]);
    const exercised = new Set(found.map(({ request }) => operationOf(request.method, request.url)?.operationId));
    expect(exercised.size).toBeGreaterThan(30);
    reportGate(
      'audit',
      `${hotelChanging().length} changing operations declare their record; ${exercised.size} exercised by the ` +
        `fixtures (${succeeded.length} requests), each wrote entries naming it`,
    );
  });
});
