import { randomUUID } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { as } from '../helpers/accounts';
import { compareCoverage, coverageProblems, operationKey, reportGate } from '../helpers/gates';
import { startTestServer, type TestServer } from '../helpers/realtime';
import type Joi from 'joi';
import {
  BODY_TEMPLATES,
  deriveMinimal,
  FIELD_KINDS,
  PATH_PARAM_KINDS,
  QUERY_TEMPLATES,
  validationError,
} from './cross-hotel-requests';
import { newCanary, registerCanaryHotel, seedHotel, type RecordKind, type SeededHotel } from './tenant-fixture';

/**
 * The hostile-input gate, generated from the API's own OpenAPI document, so a route added later is covered without new
 * code. For every operation, every path and query parameter and every body field (nested ones too) gets boundary and
 * hostile values of its type, one at a time, inside an otherwise valid request of a signed-in hotel owner with real
 * records: dates around and far beyond the accepted calendar, instants at the ends of what JavaScript can hold (with
 * and without offsets), a NUL byte, 100 kB and lone surrogates for strings, huge and 12-digit numbers; every from/to
 * pair gets a span from 1900 to 2200 (and from year 0 to 9999); a declared `Idempotency-Key` header gets 201 characters.
 * The server listens in this process, so its event loop is this one: `monitorEventLoopDelay` is reset before each
 * request and read after it. The gate fails on any 5xx, and on any request that stalls the loop over 100 ms every time
 * (it is retried alone up to three times, as a loaded machine or the collector can stall a process on its own) with
 * over 100 ms of the process's CPU each time (a stall without that CPU is the process waiting for a core). Each operation's unaltered request
 * goes first and must be accepted (2xx, or the service's own 409 or 422), so each hostile value is the one thing that
 * differs; every declared operation is covered by name, and a request that gets no answer (a reset socket) fails.
 */

const RESOLUTION_MS = 10;
const LAG_BOUND_MS = 100;
const QUIET_LAG_MS = 20;
/** How many times a request that stalled is sent again alone before its stall counts. */
const STALL_RETRIES = 3;
// About 2.5 minutes on the slowest 2-core machine so far; retries of stalled requests come on top.
jest.setTimeout(360_000);

interface SchemaNode {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  minItems?: number;
  minimum?: number;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

interface ParameterDoc {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: SchemaNode;
}

interface OperationDoc {
  description?: string;
  parameters?: ParameterDoc[];
  requestBody?: { content: Record<string, { schema: SchemaNode }> };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OperationDoc>>;
  components?: { schemas?: Record<string, SchemaNode> };
}

/** A value as JSON carries it, and as a URL carries it (lone surrogates have no UTF-8: sent as their raw bytes). */
interface Hostile {
  label: string;
  json: unknown;
  url: string;
}

type ValueKind = 'date' | 'instant' | 'string' | 'number' | 'decimalString';

const hostile = (label: string, json: unknown, url = String(json)): Hostile => ({ label, json, url });

const VALUES: Record<ValueKind, Hostile[]> = {
  date: ['0000-01-01', '0001-01-01', '1899-12-31', '2201-01-01', '9999-12-31'].map((d) => hostile(d, d)),
  instant: [
    '+275760-09-13T00:00:00Z',
    '-271821-04-20T00:00:00Z',
    '-271821-04-20',
    '+275760-09-13T00:00:00.001Z',
    '0000-01-01T00:00:00Z',
    '0000-01-01T00:00:00+14:00',
    '9999-12-31T23:59:59-12:00',
    '2201-01-01T00:00:00+03:00',
  ].map((instant) => hostile(instant, instant)),
  string: [
    hostile('NUL byte', 'Gate\u0000NUL', 'Gate%00NUL'),
    hostile('100 kB', 'x'.repeat(100_000)),
    hostile('lone high surrogate', '\ud800', '%ED%A0%80'),
    hostile('lone low surrogate', 'a\udfffb', 'a%ED%BF%BFb'),
  ],
  number: [1e308, -1e308, 1e12, 999_999_999_999.99].map((n) => hostile(String(n), n)),
  decimalString: ['9999999999.99', '-9999999999.99', '123456789012.34'].map((d) => hostile(`"${d}"`, d)),
};

const SPANS: Record<'date' | 'instant', [string, string][]> = {
  date: [
    ['1900-01-01', '2200-12-31'],
    ['0000-01-01', '9999-12-31'],
  ],
  instant: [
    ['1900-01-01T00:00:00Z', '2200-12-31T23:59:59Z'],
    ['0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'],
  ],
};

const OVERSIZED_IDEMPOTENCY_KEY = 'k'.repeat(201);
/** Well-formed values of the credential headers routes require besides the key (a stay's proof, wrong). */
const WELL_FORMED_HEADERS: Record<string, string> = { 'x-room': '101', 'x-stay-code': '12345678' };

/**
 * An unaltered request is accepted when the service answers it: 2xx, or its own refusal of a conflict (409) or a
 * business rule (422). A 400 would mean every probe of the operation is refused for the baseline's fault.
 */
const acceptedBaseline = (status: number) => (status >= 200 && status < 300) || status === 409 || status === 422;

const SECRET = 'a secret the gate does not hold';
const needs = (status: number, what: string) => ({ status, reason: `needs ${what}, ${SECRET}` });
const parentGone = { status: 404, reason: 'an earlier DELETE of the sweep removed the record it belongs to' };

/**
 * Operations whose unaltered request gets another answer, by `METHOD /path`, with the status and why: their probes
 * prove only that the refusal holds. Each is a gap to close with a request template (the gate fails on a stale one).
 */
const BASELINE_EXCEPTIONS: Record<string, { status: number; reason: string }> = {
  'POST /api/auth/login': needs(401, 'the password of an account'),
  'GET /api/auth/confirm-email': needs(302, 'an e-mailed confirmation token'),
  'POST /api/auth/reset-password': needs(400, 'an e-mailed reset token'),
  'POST /api/auth/accept-invite': needs(400, 'an e-mailed invitation token'),
  'POST /api/agents/pair': needs(401, "a desk's pair code"),
  'GET /tvpms': needs(401, "the TV system's token"),
  'POST /tvpms': needs(401, "the TV system's token"),
  'PUT /tvpms': needs(401, "the TV system's token"),
  'PATCH /tvpms': needs(401, "the TV system's token"),
  'DELETE /tvpms': needs(401, "the TV system's token"),
  'POST /api/wifi-auth/verify': needs(401, "the captive portal controller's authorization"),
  'POST /api/channels/channex/webhook': needs(401, "a hotel's channel intake token"),
  'GET /api/review-links/:token': needs(404, 'an e-mailed review link'),
  'POST /api/review-links/:token/review': needs(404, 'an e-mailed review link'),
  'POST /api/review-links/:token/opt-out': needs(404, 'an e-mailed review link'),
  'GET /api/hotels/:slug/room-service/guest/config': needs(403, "a stay's code"),
  'POST /api/hotels/:slug/room-service/guest/orders': needs(403, "a stay's code"),
  'GET /api/hotels/:slug/room-service/guest/orders': needs(403, "a stay's code"),
  'GET /api/hotels/:slug/room-service/guest/orders/:id': needs(404, "an order's token"),
  'GET /api/files/:folder/:name': {
    status: 400,
    reason: "an uploaded object's generated name (the uploads tests and the security gate fetch real uploads)",
  },
  'POST /api/upload': { status: 400, reason: 'a multipart body, not JSON (the security gate sends files)' },
  'POST /api/hotels/:slug/blocks/:id/rooming-list': {
    status: 415,
    reason: 'a text/csv body, not JSON (the blocks tests send malformed lists)',
  },
  'DELETE /api/upload': {
    status: 400,
    reason: 'its url must name a file of the store; the document types it as any string',
  },
  'GET /api/widget/:slug/availability': { status: 400, reason: 'its dates are a pair the derivation does not order' },
  'POST /api/widget/:slug/bookings': { status: 400, reason: 'no template yet for its required ids' },
  'POST /api/widget/:slug/rental-bookings': { status: 400, reason: 'no template yet for its required ids' },
  'DELETE /api/hotels/:slug/workstations/:id/devices/:deviceId': parentGone,
  'DELETE /api/hotels/:slug/lockvendor/room-locks/by-mac/:mac': parentGone,
  'DELETE /api/hotels/:slug/chat/rooms/:id/members/:userId': parentGone,
  'DELETE /api/hotels/:slug/chat/messages/:id': parentGone,
};

interface Probe {
  operation: string;
  /** `METHOD /path` as the routes declare it. */
  key: string;
  label: string;
  /** The operation's unaltered request, sent before its probes. */
  baseline?: boolean;
  method: string;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The one status the probe must get, where the service promises one. */
  expectStatus?: number;
}

let t: TestServer;
let owner: SeededHotel;
let openApi: OpenApiDocument;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });

beforeAll(async () => {
  t = await startTestServer();
  const canary = newCanary();
  owner = await seedHotel(t, await registerCanaryHotel(t, canary), canary);
  openApi = (await t.http.get('/api/openapi.json').expect(200)).body as OpenApiDocument;
  histogram.enable();
});
afterAll(async () => {
  histogram.disable();
  await t?.close();
});

// ---- reading the document ----------------------------------------------------------------------------------------

function resolve(node: SchemaNode | undefined): SchemaNode {
  if (!node?.$ref) return node ?? {};
  const name = node.$ref.replace('#/components/schemas/', '');
  return resolve(openApi.components?.schemas?.[name]);
}

function kindsOf(raw: SchemaNode): Set<ValueKind> {
  const node = resolve(raw);
  const members = [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])];
  if (members.length > 0) {
    const kinds = new Set(members.flatMap((member) => [...kindsOf(member)]));
    if (kinds.has('number') && kinds.has('string')) kinds.add('decimalString');
    return kinds;
  }
  if (node.type === 'string') {
    return new Set([node.format === 'date' ? 'date' : node.format === 'date-time' ? 'instant' : 'string']);
  }
  if (node.type === 'number' || node.type === 'integer') return new Set(['number']);
  return new Set();
}

function isDateLike(node: SchemaNode): boolean {
  const kinds = kindsOf(node);
  return kinds.has('date') || kinds.has('instant');
}

/** The end of a range whose start is `name` (`from`/`to`, `x_from`/`x_to`, `check_in`/`check_out`, `start_at`/`end_at`). */
function pairedEnd(name: string): string | undefined {
  if (name === 'from') return 'to';
  if (name === 'check_in') return 'check_out';
  if (name === 'start_at') return 'end_at';
  return name.endsWith('_from') ? `${name.slice(0, -'_from'.length)}_to` : undefined;
}

/** The leaves of a body schema (scalars, nested in objects and the first element of arrays), with their paths. */
function leaves(
  raw: SchemaNode,
  path: (string | number)[] = [],
  depth = 0,
): { path: (string | number)[]; node: SchemaNode }[] {
  const node = resolve(raw);
  if (depth > 4) return [];
  if (node.properties) {
    return Object.entries(node.properties).flatMap(([key, child]) => leaves(child, [...path, key], depth + 1));
  }
  if (node.type === 'array' && node.items) return leaves(node.items, [...path, 0], depth + 1);
  return kindsOf(node).size > 0 && path.length > 0 ? [{ path, node }] : [];
}

// ---- valid requests to start from ----------------------------------------------------------------------------------

let counter = 0;

/** A minimal valid-looking value of a schema, with the owner's real records for id fields. */
function minimal(raw: SchemaNode, name: string): unknown {
  const node = resolve(raw);
  if (node.enum?.length) return node.enum.find((value) => value !== null);
  const members = node.anyOf ?? node.oneOf ?? node.allOf;
  if (members?.length) return minimal(members[0], name);
  switch (node.type) {
    case 'object':
      return Object.fromEntries((node.required ?? []).map((key) => [key, minimal(node.properties?.[key] ?? {}, key)]));
    case 'array':
      return node.minItems ? [minimal(node.items ?? {}, name)] : [];
    case 'integer':
    case 'number':
      return Math.max(node.minimum ?? 1, 1);
    case 'boolean':
      return false;
    case 'string':
      if (node.format === 'uuid') return FIELD_KINDS[name] ? owner.records[FIELD_KINDS[name]] : randomUUID();
      if (node.format === 'date') return '2032-05-01';
      if (node.format === 'date-time') return '2032-05-01T12:00:00Z';
      if (node.format === 'email') return `gate-${++counter}-${randomUUID().slice(0, 8)}@example.test`;
      if (node.format === 'uri') return owner.records.upload;
      return `Gate ${++counter}`;
    default:
      return undefined;
  }
}

/** `/api/hotels/{slug}/rooms/{id}` -> `/api/hotels/:slug/rooms/:id`, the key of the request templates. */
const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function pathIds(path: string): Record<string, string> {
  const express = expressPath(path);
  const segments = express.split('/');
  const ids: Record<string, string> = { slug: owner.hotel.slug };
  for (const name of [...express.matchAll(/:(\w+)/g)].map((match) => match[1]).filter((n) => n !== 'slug')) {
    const kinds = PATH_PARAM_KINDS[segments.slice(0, segments.indexOf(`:${name}`) + 1).join('/')];
    const kind = (Array.isArray(kinds) ? kinds[0] : kinds) as RecordKind | undefined;
    ids[name] = kind ? owner.records[kind] : randomUUID();
  }
  return ids;
}

function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => values[name]);
}

function queryString(query: Record<string, string>): string {
  const pairs = Object.entries(query).map(([key, value]) => `${encodeURIComponent(key)}=${value}`);
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

const encoded = (value: unknown) => encodeURIComponent(String(value));

interface Baseline {
  path: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

/**
 * What the service itself would accept, where the document's minimal value is not: derived from the route's joi
 * schema (a patch needs one field, a field its pattern), when that derivation passes it.
 */
function accepted(key: string, what: 'body' | 'query', value: Record<string, unknown>): Record<string, unknown> {
  const schema = t.routes.find((route) => operationKey(route) === key)?.request?.[what] as Joi.ObjectSchema | undefined;
  if (!schema || !validationError(schema, value)) return value;
  const derived = deriveMinimal(schema, ++counter);
  return derived && !validationError(schema, derived) ? derived : value;
}

function baseline(path: string, method: string, operation: OperationDoc): Baseline {
  const key = `${method.toUpperCase()} ${expressPath(path)}`;
  const params = operation.parameters ?? [];
  const pathValues = Object.fromEntries(Object.entries(pathIds(path)).map(([name, value]) => [name, encoded(value)]));
  const queryValues =
    QUERY_TEMPLATES[key]?.base(owner.records, ++counter) ??
    accepted(
      key,
      'query',
      Object.fromEntries(
        params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, minimal(p.schema, p.name)]),
      ),
    );
  const query = Object.fromEntries(Object.entries(queryValues).map(([name, value]) => [name, encoded(value)]));
  const jsonBody = operation.requestBody?.content['application/json']?.schema;
  const body = jsonBody
    ? (BODY_TEMPLATES[key]?.base(owner.records, ++counter) ??
      accepted(key, 'body', minimal(jsonBody, '') as Record<string, unknown>))
    : undefined;
  return { path: pathValues, query, body };
}

function setAt(target: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let node: Record<string | number, unknown> = target;
  for (const [index, segment] of path.entries()) {
    if (index === path.length - 1) {
      node[segment] = value;
      return;
    }
    const next = typeof path[index + 1] === 'number' ? [] : {};
    if (typeof node[segment] !== 'object' || node[segment] === null) node[segment] = next;
    node = node[segment] as Record<string | number, unknown>;
  }
}

/** Sets a range's two ends, dropping the other dates beside them (`date` beside `date_from`, nights beside hours). */
function withSpan<T>(values: Record<string, T>, dateKeys: string[], from: string, to: string, span: [T, T]) {
  const rest = Object.fromEntries(Object.entries(values).filter(([key]) => !dateKeys.includes(key)));
  return { ...rest, [from]: span[0], [to]: span[1] };
}

// ---- the probes ------------------------------------------------------------------------------------------------------

function probesOf(path: string, method: string, operation: OperationDoc): Probe[] {
  const name = `${method.toUpperCase()} ${path}`;
  const base = baseline(path, method, operation);
  const probes: Probe[] = [];
  const probe = (label: string, changes: Partial<Baseline> & { headers?: Record<string, string> }) => {
    const parts = { ...base, ...changes };
    probes.push({
      operation: name,
      key: operationKey({ method, path }),
      label,
      method,
      url: fillPath(path, parts.path) + queryString(parts.query),
      body: parts.body,
      headers: changes.headers,
    });
  };

  const params = operation.parameters ?? [];
  for (const param of params) {
    for (const kind of kindsOf(param.schema)) {
      for (const value of VALUES[kind]) {
        const label = `${param.in} ${param.name} = ${value.label}`;
        if (param.in === 'path') probe(label, { path: { ...base.path, [param.name]: value.url } });
        if (param.in === 'query') probe(label, { query: { ...base.query, [param.name]: value.url } });
      }
    }
  }
  const queryDates = params.filter((p) => p.in === 'query' && isDateLike(p.schema)).map((p) => p.name);
  for (const from of queryDates) {
    const to = pairedEnd(from);
    const kind = [...kindsOf(params.find((p) => p.name === from)!.schema)][0];
    if (!to || !queryDates.includes(to) || (kind !== 'date' && kind !== 'instant')) continue;
    for (const span of SPANS[kind]) {
      const encodedSpan = span.map(encoded) as [string, string];
      probe(`query ${from}..${to} = ${span.join('..')}`, {
        query: withSpan(base.query, queryDates, from, to, encodedSpan),
      });
    }
  }

  const bodySchema = resolve(operation.requestBody?.content['application/json']?.schema);
  if (base.body && bodySchema) {
    for (const leaf of leaves(bodySchema)) {
      for (const kind of kindsOf(leaf.node)) {
        for (const value of VALUES[kind]) {
          const body = structuredClone(base.body);
          setAt(body, leaf.path, value.json);
          probe(`body ${leaf.path.join('.')} = ${value.label}`, { body });
        }
      }
    }
    const properties = bodySchema.properties ?? {};
    const dateKeys = Object.keys(properties).filter((key) => isDateLike(properties[key]));
    for (const from of dateKeys) {
      const to = pairedEnd(from);
      const kind = [...kindsOf(properties[from])][0];
      if (!to || !dateKeys.includes(to) || (kind !== 'date' && kind !== 'instant')) continue;
      for (const span of SPANS[kind]) {
        probe(`body ${from}..${to} = ${span.join('..')}`, { body: withSpan(base.body, dateKeys, from, to, span) });
      }
    }
  }

  if (
    operation.parameters?.some((parameter) => parameter.in === 'header' && /^idempotency-key$/i.test(parameter.name))
  ) {
    // The route's other required headers well formed (a guest's stay proof): a malformed one would get the route's
    // one answer (403) before the key is looked at.
    const required = params.filter((param) => param.in === 'header' && param.required);
    const wellFormed = Object.fromEntries(
      required.flatMap((param) =>
        WELL_FORMED_HEADERS[param.name] ? [[param.name, WELL_FORMED_HEADERS[param.name]]] : [],
      ),
    );
    probe('Idempotency-Key of 201 characters', {
      headers: { ...wellFormed, 'Idempotency-Key': OVERSIZED_IDEMPOTENCY_KEY },
    });
    probes[probes.length - 1].expectStatus = 400;
  }
  // The unaltered request goes first, where there is anything to alter (an operation without inputs, such as log
  // out everywhere, gets no hostile value and no request).
  if (probes.length > 0) {
    probe('baseline', {});
    probes.unshift({ ...probes.pop()!, baseline: true });
  }
  return probes;
}

// ---- sending and measuring -------------------------------------------------------------------------------------------

/**
 * How long the event loop stalled beyond the monitor's own interval: `monitorEventLoopDelay`'s recorded maximum less
 * its resolution. A reset also forgets the monitor's previous tick, so the first interval after a reset goes unrecorded,
 * and a stall right after one (the original freeze began within a millisecond of its request) would be missed. So the
 * monitor is reset, then given one tick to count from, before the sweep and after each stall: in between its maximum
 * only grows, and the request that lifts it over the bound is the one that stalled.
 */
const lag = () => Math.max(0, histogram.max / 1e6 - RESOLUTION_MS);

async function restartMonitor(): Promise<void> {
  histogram.reset();
  await delay(RESOLUTION_MS);
}

/** Waits, up to 2 s, for a quiet moment (50 ms in which the loop kept to its ticks), so a retry is measured alone. */
async function settle(): Promise<void> {
  for (let attempt = 0; attempt < 30; attempt++) {
    await restartMonitor();
    await delay(50);
    if (lag() < QUIET_LAG_MS) return;
  }
}

/** Sends a probe; one tick after the answer lets an overdue monitor tick, which fires before any later timer, count. */
async function send(probe: Probe): Promise<{ status: number; text: string }> {
  let request = t.http[probe.method as 'get' | 'post' | 'put' | 'patch' | 'delete'](probe.url).set(
    as(owner.hotel.accessToken),
  );
  for (const [header, value] of Object.entries(probe.headers ?? {})) request = request.set(header, value);
  try {
    const response = await (probe.body === undefined ? request : request.send(probe.body as object));
    return { status: response.status, text: response.text ?? '' };
  } catch (error) {
    // Node itself refuses some requests (a 100 kB URL) and may close the socket as it answers.
    return { status: 0, text: String(error) };
  } finally {
    await delay(1);
  }
}

type Operations = { path: string; method: string; operation: OperationDoc }[];

/**
 * The probes of every operation, built one operation at a time: holding them all (100 kB values among them) makes the
 * collector pause this process, which is the server's, for tens of milliseconds.
 */
function* allProbes(operations: Operations): Generator<Probe> {
  for (const { path, method, operation } of operations) yield* probesOf(path, method, operation);
}

it('no hostile input gets a 5xx or stalls the event loop over 100 ms', async () => {
  const order = (method: string) => (method === 'delete' ? 1 : 0);
  const operations = Object.entries(openApi.paths)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })))
    .sort((a, b) => order(a.method) - order(b.method));
  await restartMonitor();
  await delay(500);
  const idle = lag();

  const failures: string[] = [];
  const exercised = new Set<string>();
  let beyondHeaderLimit = 0;
  const retried: string[] = [];
  let maxLag = 0;
  const started = Date.now();
  await restartMonitor();
  let requests = 0;
  for (const probe of allProbes(operations)) {
    requests += 1;
    exercised.add(probe.key);
    const name = `${probe.operation} [${probe.label}]`;
    let outcome = await send(probe);
    if (lag() > LAG_BOUND_MS) {
      // Retried alone, once the machine is quiet, on a fresh monitor: a loaded machine deschedules a process at times,
      // and the collector may pause it once. A stall the input causes comes back on every retry, with its CPU.
      const stalls = [lag()];
      for (let retry = 0; retry < STALL_RETRIES; retry++) {
        await settle();
        await restartMonitor();
        const cpuBefore = process.cpuUsage();
        outcome = await send(probe);
        const { user, system } = process.cpuUsage(cpuBefore);
        const cpuMs = (user + system) / 1000;
        stalls.push(lag());
        maxLag = Math.max(maxLag, lag());
        // Work that blocks the loop is this process's CPU time; a stall longer than the CPU the whole request cost
        // was the machine's (the process waited for a core).
        if (lag() <= LAG_BOUND_MS || cpuMs <= LAG_BOUND_MS) break;
        if (retry === STALL_RETRIES - 1)
          failures.push(
            `${name} stalled the event loop ${stalls.map((ms) => ms.toFixed(0)).join(', ')} ms ` +
              `(${cpuMs.toFixed(0)} ms of CPU the last time)`,
          );
      }
      retried.push(`${name}: ${stalls.map((ms) => ms.toFixed(0)).join(', ')} ms`);
      await restartMonitor();
    }
    maxLag = Math.max(maxLag, lag());
    const brief = outcome.text.slice(0, 200);
    if (probe.baseline) {
      const exception = BASELINE_EXCEPTIONS[probe.key];
      if (exception ? outcome.status !== exception.status : !acceptedBaseline(outcome.status)) {
        failures.push(
          `${name} → ${outcome.status}, expected ${exception ? exception.status : '2xx, 409 or 422'}: the unaltered ` +
            `request is not accepted, so no hostile value of it reaches the service ${brief}`,
        );
      }
    }
    // No answer at all (a reset socket, a refused connection) is no proof that the server held; only a URL beyond
    // Node's header limit may end so (Node answers 431 before the app reads it and closes the socket as it answers,
    // so the client may see the close first), and it gets nothing but that.
    if (Buffer.byteLength(probe.url) > maxHeaderSize) {
      beyondHeaderLimit += 1;
      if (outcome.status !== 431 && !(outcome.status === 0 && /ECONNRESET|EPIPE|socket hang up/.test(outcome.text))) {
        failures.push(`${name} → ${outcome.status}, expected Node's 431 (a URL beyond its header limit) ${brief}`);
      }
    } else if (outcome.status === 0) failures.push(`${name} → no answer: ${brief}`);
    if (outcome.status >= 500) failures.push(`${name} → ${outcome.status} ${brief}`);
    if (probe.expectStatus && outcome.status !== probe.expectStatus) {
      failures.push(`${name} → ${outcome.status}, expected ${probe.expectStatus} ${brief}`);
    }
    // A 401 would mean a probe ended the owner's session and the rest proved nothing.
    if (outcome.status === 401 && probe.url.startsWith('/api/hotels/')) {
      failures.push(`${name} → 401: the owner's session ended`);
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  // Every declared operation by name, both ways (the registry checked against the module folders): the document
  // the probes are built from is generated from the same routes.
  // Those without inputs get no request: nothing of theirs can be hostile.
  const inputless = operations
    .map(({ path, method }) => operationKey({ method, path }))
    .filter((key) => !exercised.has(key));
  const coverage = compareCoverage(t.routes.map(operationKey), [...exercised, ...inputless]);
  const stale = Object.keys(BASELINE_EXCEPTIONS).filter((key) => !exercised.has(key));
  expect([
    ...failures,
    ...coverageProblems(coverage),
    ...stale.map((key) => `${key}: an exception for no operation`),
  ]).toEqual([]);
  reportGate(
    'hostile-inputs',
    `${requests} requests on ${coverage.figure} (${inputless.length} without inputs; each other accepted ` +
      `unaltered first), max event-loop lag ${maxLag.toFixed(0)} ms ` +
      `(idle ${idle.toFixed(0)} ms, bound ${LAG_BOUND_MS} ms, ${retried.length} retried), 0 5xx, 0 unanswered ` +
      `(${beyondHeaderLimit} URLs beyond the header limit refused by Node), ${seconds} s`,
  );
});
