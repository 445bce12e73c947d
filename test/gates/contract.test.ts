import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { createTestApp, type TestApp } from '../helpers/app';
import { reportGate } from '../helpers/gates';

/**
 * The contract gate: the OpenAPI document the API serves is what clients generate from. It must lint clean with
 * Redocly's recommended rules (redocly.yaml), describe every answer's fields as sent or not (`required`), name every
 * record (an object with an `id`) as a component, and give openapi-typescript types that a typed call compiles against.
 */

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const bin = (pkg: string) => path.join(ROOT, 'node_modules', pkg, 'bin/cli.js');
// Nothing to report home or to update from inside a test run.
const quietTools = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[]; $ref?: string };
interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string }[];
        responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
      }
    >
  >;
  components: { schemas: Record<string, Schema> };
}

let t: TestApp;
let dir: string;
let document: OpenApiDocument;
let documentFile: string;
const figures: string[] = [];

beforeAll(async () => {
  t = createTestApp();
  dir = mkdtempSync(path.join(os.tmpdir(), 'hotel-pms-contract-'));
  document = (await t.http.get('/api/openapi.json').expect(200)).body as OpenApiDocument;
  documentFile = path.join(dir, 'openapi.json');
  writeFileSync(documentFile, JSON.stringify(document, null, 2));
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t?.close();
  if (figures.length === 4) reportGate('contract', figures.join('; '));
});

/** Every object schema an answer can contain, once each, with where it was first met. */
function answerObjects(doc: OpenApiDocument): { where: string; schema: Schema }[] {
  const found = new Map<Schema, string>();
  const visit = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, where));
    if (!node || typeof node !== 'object') return;
    const schema = node as Schema;
    if (schema.$ref) {
      const name = schema.$ref.split('/').pop()!;
      const target = doc.components.schemas[name];
      if (!found.has(target)) visit(target, name);
      return;
    }
    // An object without declared properties is an open map (e.g. a notification's `data`): nothing to require.
    if (Object.keys(schema.properties ?? {}).length > 0 && !found.has(schema)) found.set(schema, where);
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties') {
        for (const [name, property] of Object.entries(value as Record<string, Schema>))
          visit(property, `${where}.${name}`);
      } else visit(value, where);
    }
  };
  for (const [route, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const media of Object.values(response.content ?? {})) visit(media.schema, `${method} ${route} ${status}`);
      }
    }
  }
  return [...found].map(([schema, where]) => ({ where, schema }));
}

it('redocly lint (recommended rules): no errors', async () => {
  const { stdout } = await run(
    process.execPath,
    [bin('@redocly/cli'), 'lint', documentFile, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'],
    { cwd: dir, env: quietTools, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(stdout) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
  };
  const errors = report.problems.filter((problem) => problem.severity === 'error');
  expect(errors.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`)).toEqual(
    [],
  );
  const rules = [...new Set(report.problems.map((problem) => problem.ruleId))].sort();
  figures.push(`redocly 0 errors, ${report.totals.warnings} warnings (${rules.join(', ') || 'none'})`);
});

it('every object an answer carries says which fields are always sent, and every record is a named component', () => {
  const objects = answerObjects(document);
  expect(objects.filter(({ schema }) => !schema.required?.length).map(({ where }) => where)).toEqual([]);
  const componentSchemas = new Set(Object.values(document.components.schemas));
  const unnamedRecords = objects.filter(({ schema }) => schema.properties?.id && !componentSchemas.has(schema));
  expect(unnamedRecords.map(({ where }) => where)).toEqual([]);
  expect(Object.keys(document.components.schemas)).toEqual(
    expect.arrayContaining(['Problem', 'Room', 'RoomCategory', 'Booking', 'Guest', 'HousekeepingTask', 'StaffMember']),
  );
  figures.push(`${objects.length} answer objects, all with required; ${componentSchemas.size} named components`);
});

it('openapi-typescript generates types that a typed call compiles against', async () => {
  const typesFile = path.join(dir, 'api.d.ts');
  await run(process.execPath, [bin('openapi-typescript'), documentFile, '--output', typesFile], {
    cwd: dir,
    env: quietTools,
  });
  const clientFile = path.join(dir, 'client.ts');
  writeFileSync(
    clientFile,
    `import type { components, paths } from './api';

type RoomList = paths['/api/hotels/{slug}/rooms']['get']['responses'][200]['content']['application/json'];
type RoomQuery = NonNullable<paths['/api/hotels/{slug}/rooms']['get']['parameters']['query']>;
type Problem = components['schemas']['Problem'];

export async function listRooms(baseUrl: string, slug: string, token: string, query: RoomQuery = {}): Promise<RoomList> {
  const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  const response = await fetch(\`\${baseUrl}/api/hotels/\${encodeURIComponent(slug)}/rooms?\${search}\`, {
    headers: { Authorization: \`Bearer \${token}\` },
  });
  if (!response.ok) {
    const problem = (await response.json()) as Problem;
    throw new Error(\`\${problem.status} \${problem.code}: \${problem.detail}\`);
  }
  return (await response.json()) as RoomList;
}

export async function roomNumbers(baseUrl: string, slug: string, token: string): Promise<string[]> {
  const rooms = await listRooms(baseUrl, slug, token, { status: 'clean' });
  const floors: (string | null)[] = rooms.map((room) => room.floor);
  // @ts-expect-error a room's number is a string: the types are not \`any\`
  const wrong: number = rooms[0].number;
  // @ts-expect-error the status is one of the documented values
  const unknownStatus: RoomQuery = { status: 'haunted' };
  return [...rooms.map((room) => room.number), String(floors.length + wrong), String(unknownStatus)];
}
`,
  );
  const program = ts.createProgram([clientFile], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  expect(diagnostics).toEqual([]);
  figures.push('openapi-typescript client compiled (a typed GET /api/hotels/{slug}/rooms)');
});

/**
 * The creating operations that take no `Idempotency-Key`, each with its `idempotency: { none }` beside the route: a
 * new opt-out is a decision to review here, not a silent default.
 */
const CREATING_WITHOUT_KEY = [
  'post /api/agents/pair', // answers the agent's credential
  'post /api/auth/register', // a second registration of the e-mail is refused
  'post /api/hotels/{slug}/payment-gateways', // its body carries the gateway's secret key
  'post /api/hotels/{slug}/room-service/stays/{bookingId}/code', // answers a new secret
  'post /api/hotels/{slug}/tv-integration/tl-token', // answers a new secret
  'post /api/hotels/{slug}/users', // its body may carry a password
  'post /api/hotels/{slug}/webhooks', // answers the subscription's signing secret
  'post /api/hotels/{slug}/webhooks/{id}/rotate-secret', // answers a new secret
  'post /api/hotels/{slug}/wifi-settings/portal-secret', // answers a new secret
  'post /api/hotels/{slug}/workstations/{id}/pair-code', // answers a new secret
  'post /api/review-links/{token}/review', // a link takes one review
  'post /api/upload', // a streamed body
];

it('every creating operation (POST answering 201) declares Idempotency-Key, but the reviewed opt-outs', () => {
  const creating = Object.entries(document.paths).flatMap(([route, operations]) =>
    Object.entries(operations)
      .filter(([method, operation]) => method === 'post' && operation.responses['201'])
      .map(([method, operation]) => ({ name: `${method} ${route}`, operation })),
  );
  const declares = ({ operation }: (typeof creating)[number]) =>
    (operation.parameters ?? []).some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
  expect(
    creating
      .filter((op) => !declares(op))
      .map(({ name }) => name)
      .sort(),
  ).toEqual(CREATING_WITHOUT_KEY);
  figures.push(`${creating.filter(declares).length} of ${creating.length} creating operations declare Idempotency-Key`);
});
