import { randomUUID } from 'node:crypto';
import type Joi from 'joi';
import type { RouteDefinition } from '../../src/platform/http/route';
import type { ReferenceAgent } from '../fakes/agent';
import { as } from '../helpers/accounts';
import { connectAgent } from '../helpers/desks';
import {
  compareCoverage,
  coverageProblems,
  inScope,
  operationKey,
  reportGate,
  type Coverage,
  type GateScope,
} from '../helpers/gates';
import {
  connectStaff,
  handshakeStatus,
  startTestServer,
  type RealtimeMessage,
  type StaffClient,
  type TestServer,
} from '../helpers/realtime';
import { until } from '../helpers/wait';
import {
  deriveMinimal,
  fieldKind,
  idFieldsOf,
  requestTemplates,
  setPath,
  validationError,
  type Builder,
  type Records,
  type RequestTemplate,
} from './cross-hotel-requests';
import {
  newCanary,
  recordAddresses,
  registerCanaryHotel,
  seedHotel,
  settledSnapshot,
  snapshotDiff,
  snapshotHotel,
  uuidsOf,
  type HotelSnapshot,
  type RecordAddresses,
  type RecordKind,
  type SeededHotel,
} from './tenant-fixture';

/**
 * The cross-hotel gate. Generated from the routes the service declares (`apiRoutes`): for every operation under
 * `/api/hotels/:slug`, hotel A's owner calls it on hotel B's slug (403, always), on A's own slug with B's ids in the
 * path (404), and with B's ids in the body or the query (4xx, or for a filter an answer without B's data). B's rows
 * must not change, no answer may carry B's canary text (nor, when 2xx, B's ids), and A's staff socket must never
 * receive B's events. A route the sweep cannot fill fails the gate, naming what its module's `fixtures` should
 * declare. `crossHotelGate(scope)` declares the gate's tests (once per test file): cross-hotel.test.ts runs it on the
 * registry, test/api/modules.test.ts on the routes of a module it plugs in.
 */

const FOREIGN_HOTEL = 'Нет доступа к этому отелю';
/** The role A's owner calls with; every hotel route must admit it (the role matrix gate covers the others). */
const CALLER_ROLE = 'hotel_admin';

/** Documented answers other than 404 to another hotel's ids in the path, by `METHOD /path` (none so far). */
const PATH_ID_STATUS_EXCEPTIONS: Record<string, { status: number; reason: string }> = {};

/** A's own writes that cannot succeed again after the seed, by `METHOD /path`, with the status they get instead. */
const OWN_STATUS_EXCEPTIONS: Record<string, { status: number; reason: string }> = {
  'POST /api/hotels/:slug/payment-gateways': {
    status: 409,
    reason: 'one gateway per provider and hotel, and the seed connected YooKassa',
  },
  'POST /api/hotels/:slug/workstations/update-all': {
    status: 409,
    reason: 'no agent release is published in this build',
  },
  'PUT /api/hotels/:slug/channel-intake/webhook': {
    status: 409,
    reason:
      "`channel_not_connected`: A's own writes run in the routes' order, and the channels module's DELETE " +
      '/channel-connection (registered before channel intake) has disconnected A by then',
  },
};

/** A's own request answered as expected: 2xx, or the status an exception names with its reason. */
function expectOwnStatus(result: Seen, operation: Operation): void {
  const exception = OWN_STATUS_EXCEPTIONS[operation.key];
  if (exception)
    expectStatus(result, (status) => status === exception.status, `${exception.status} (${exception.reason})`);
  else expectStatus(result, is2xx, '2xx');
}

type Category =
  | 'coverage'
  | 'foreign-slug'
  | 'unknown-slug'
  | 'path-ids'
  | 'body-ids'
  | 'query-ids'
  | 'own-read'
  | 'own-write'
  | 'control'
  | 'foreign-upload'
  | 'realtime-handshake';

const ATTEMPT_CATEGORIES: Category[] = [
  'foreign-slug',
  'unknown-slug',
  'path-ids',
  'body-ids',
  'query-ids',
  'own-read',
  'own-write',
  'foreign-upload',
  'realtime-handshake',
];

interface Seen {
  category: Category;
  /** `METHOD /path` of the declared route, where the attempt called one. */
  operation?: string;
  label: string;
  status: number;
  text: string;
  /** The URL, query and body sent: ids that appear there may be echoed by a 4xx. */
  sent: string;
}

interface Operation {
  route: RouteDefinition;
  key: string;
  /** Path parameters other than `slug`, each with the record kinds it may name. */
  params: { name: string; kinds: readonly RecordKind[] }[];
  bodyTemplate?: RequestTemplate;
  queryTemplate?: RequestTemplate;
  bodyIdFields: { field: string; kind: RecordKind }[];
  queryIdFields: { field: string; kind: RecordKind }[];
}

let scope: GateScope = {};
/** Where the modules say requests name their records. */
let addresses: RecordAddresses;
/** The modules' bodies and queries of their routes, where the schemas do not give them. */
let templates: ReturnType<typeof requestTemplates>;
let t: TestServer;
let a: SeededHotel;
let b: SeededHotel;
let socketA: StaffClient;
let socketB: StaffClient;
/** The reference agent on A's seeded desk, so A's desk commands (the controls among them) get real answers. */
let agentA: ReferenceAgent;
let before: HotelSnapshot;
let after: HotelSnapshot;
let bIds: Set<string>;
let operations: Operation[] = [];
/** Every declared hotel route, by name, against those the sweep called on B's slug. */
let coverage: Coverage | undefined;
const seen: Seen[] = [];
const failures: Record<Category | 'leak' | 'unchanged' | 'realtime', string[]> = {
  coverage: [],
  'foreign-slug': [],
  'unknown-slug': [],
  'path-ids': [],
  'body-ids': [],
  'query-ids': [],
  'own-read': [],
  'own-write': [],
  control: [],
  'foreign-upload': [],
  'realtime-handshake': [],
  leak: [],
  unchanged: [],
  realtime: [],
};
let counter = 0;
const next = () => ++counter;

const opKey = (route: RouteDefinition) => `${route.method.toUpperCase()} ${route.path}`;
const brief = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

/**
 * The only public routes under a hotel's slug: the spec puts the guests' room-service config and order status among
 * `room-service/*`. Their proof is the stay's code (or the order's token), tested in the room-service tests; any other
 * public route under a slug is a coverage failure.
 */
const GUEST_PREFIXES = ['/api/hotels/:slug/room-service/guest/'];

function hotelRoutes(): RouteDefinition[] {
  const routes = t.routes;
  for (const route of routes) {
    const guestRoute = route.access.kind === 'public' && GUEST_PREFIXES.some((prefix) => route.path.startsWith(prefix));
    if (route.path.startsWith('/api/hotels/:slug') && route.access.kind !== 'hotel' && !guestRoute) {
      failures.coverage.push(`${opKey(route)} lives under a hotel slug but declares ${route.access.kind} access`);
    }
  }
  const swept = inScope(t, scope);
  return routes.filter((route) => route.access.kind === 'hotel' && swept(route));
}

function paramKinds(route: RouteDefinition, name: string): readonly RecordKind[] | undefined {
  const segments = route.path.split('/');
  const prefix = segments.slice(0, segments.indexOf(`:${name}`) + 1).join('/');
  return addresses.paths[prefix];
}

/** Reads the route declarations into operations; every gap the sweep cannot fill becomes a coverage failure. */
function plan(routes: RouteDefinition[]): Operation[] {
  const planned: Operation[] = [];
  const gap = (route: RouteDefinition, message: string) => failures.coverage.push(`${opKey(route)}: ${message}`);
  for (const route of routes) {
    const key = opKey(route);
    const access = route.access as { kind: 'hotel'; roles: readonly string[] };
    let usable = true;
    if (!access.roles.includes(CALLER_ROLE)) {
      gap(route, `does not admit ${CALLER_ROLE}: give the sweep a caller of an admitted role`);
      usable = false;
    }
    const params: Operation['params'] = [];
    for (const name of [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]).filter((n) => n !== 'slug')) {
      const kinds = paramKinds(route, name);
      if (!kinds) {
        gap(route, `no record kind for path parameter :${name}; declare its prefix in a module's fixtures.records`);
        usable = false;
      } else params.push({ name, kinds });
    }
    const request = route.request ?? {};
    if (request.multipart) {
      gap(route, 'a multipart body: teach the sweep to send one');
      usable = false;
    }
    const idFields = (schema: Joi.Schema | undefined) =>
      idFieldsOf(schema).flatMap((field) => {
        const kind = fieldKind(route, field, addresses.fields);
        if (!kind) {
          gap(route, `no record kind for id field ${field}; declare it in a module's fixtures.records`);
          usable = false;
          return [];
        }
        return [{ field, kind }];
      });
    const bodyIdFields = idFields(request.body);
    const queryIdFields = idFields(request.query);
    const bodyTemplate = templates.body[key];
    const queryTemplate = templates.query[key];
    if (request.body && bodyIdFields.length > 0 && !bodyTemplate) {
      gap(
        route,
        `its body has id fields (${bodyIdFields.map((f) => f.field).join(', ')}); declare a body template in its module's fixtures.requests`,
      );
      usable = false;
    }
    const operation: Operation = { route, key, params, bodyTemplate, queryTemplate, bodyIdFields, queryIdFields };
    for (const [schema, template, fields, what] of [
      [request.body, bodyTemplate, bodyIdFields, 'body'],
      [request.query, queryTemplate, queryIdFields, 'query'],
    ] as const) {
      if (!schema) {
        if (template) gap(route, `has a ${what} template but declares no ${what}`);
        continue;
      }
      if (!usable) continue;
      const base = buildRequest(operation, what, a.records);
      if (!base) {
        gap(
          route,
          `no valid ${what} can be derived from its schema; declare a ${what} template in its module's fixtures.requests`,
        );
        usable = false;
        continue;
      }
      const problem = validationError(schema, base);
      if (problem) {
        gap(route, `its ${what} template is not valid: ${problem}`);
        usable = false;
      }
      for (const { field, kind } of fields) {
        for (const { build } of buildersFor(template, field)) {
          const variant = structuredClone(build ? build(a.records, next()) : base);
          if (!setPath(variant, field, b.records[kind])) {
            gap(route, `its ${what} template has no place for ${field}`);
            usable = false;
          } else if (validationError(schema, variant)) {
            gap(route, `its ${what} with ${field} is not valid: ${validationError(schema, variant)}`);
            usable = false;
          }
        }
      }
    }
    // A refusal means something only beside the same request with A's own ids succeeding: a body template with id
    // fields has a control, or says for each variant why its request cannot succeed.
    const unexplained = bodyIdFields.filter(({ field }) =>
      buildersFor(bodyTemplate, field).some((builder) => !builder.uncontrolled),
    );
    if (bodyTemplate && !bodyTemplate.control && unexplained.length > 0) {
      gap(
        route,
        `its body template has no control for ${unexplained.map((f) => f.field).join(', ')}: set control (seeding ` +
          'what it needs) or give the variant an uncontrolled reason',
      );
    }
    if (usable) planned.push(operation);
  }
  const declared = new Set(t.routes.map(opKey));
  for (const key of [...Object.keys(templates.body), ...Object.keys(templates.query)]) {
    if (!declared.has(key)) failures.coverage.push(`${key}: a template for a route that no longer exists`);
  }
  return planned;
}

/**
 * The builders of requests that carry `field`: the template's variants for it, else its base (no builder: derived
 * from the schema); `uncontrolled` says why a variant's request with the caller's own ids cannot succeed.
 */
function buildersFor(
  template: RequestTemplate | undefined,
  field: string,
): { build?: Builder; uncontrolled?: string }[] {
  const variants = template?.variants?.[field];
  if (!variants) return [{ build: template?.base }];
  return (Array.isArray(variants) ? variants : [variants]).map((variant) =>
    typeof variant === 'function' ? { build: variant } : { build: variant.build, uncontrolled: variant.uncontrolled },
  );
}

function buildRequest(operation: Operation, what: 'body' | 'query', records: Records) {
  const schema = what === 'body' ? operation.route.request?.body : operation.route.request?.query;
  if (!schema) return undefined;
  const template = what === 'body' ? operation.bodyTemplate : operation.queryTemplate;
  return template ? template.base(records, next()) : deriveMinimal(schema, next());
}

function fillPath(route: RouteDefinition, slug: string, ids: Record<string, string>): string {
  return route.path.replace(/:(\w+)/g, (_match, name: string) => (name === 'slug' ? slug : ids[name]));
}

/** Path ids naming records of `owner` (the first kind of each parameter). */
function ownIds(operation: Operation, owner: SeededHotel): Record<string, string> {
  return Object.fromEntries(operation.params.map((p) => [p.name, owner.records[p.kinds[0]]]));
}

/** Every assignment of path ids from A or B with at least one of B's (each kind of a parameter in turn). */
function mixedIds(operation: Operation): { ids: Record<string, string>; label: string }[] {
  let combos: { ids: Record<string, string>; label: string[]; foreign: boolean }[] = [
    { ids: {}, label: [], foreign: false },
  ];
  for (const param of operation.params) {
    const expanded: typeof combos = [];
    for (const combo of combos) {
      for (const [side, owner] of [
        ['A', a],
        ['B', b],
      ] as const) {
        for (const kind of side === 'A' ? param.kinds.slice(0, 1) : param.kinds) {
          expanded.push({
            ids: { ...combo.ids, [param.name]: owner.records[kind] },
            label: [...combo.label, `:${param.name}=${side}.${kind}`],
            foreign: combo.foreign || side === 'B',
          });
        }
      }
    }
    combos = expanded;
  }
  return combos.filter((combo) => combo.foreign).map((combo) => ({ ids: combo.ids, label: combo.label.join(' ') }));
}

/** Only B's ids in the path (each kind of a parameter in turn). */
function foreignIds(operation: Operation): { ids: Record<string, string>; label: string }[] {
  return mixedIds(operation).filter((combo) => !combo.label.includes('=A.'));
}

interface Call {
  category: Category;
  operation: Operation;
  slug: string;
  ids: Record<string, string>;
  body?: Record<string, unknown>;
  query?: Record<string, unknown>;
  label: string;
}

async function call({ category, operation, slug, ids, body, query, label }: Call): Promise<Seen> {
  const { route } = operation;
  const url = fillPath(route, slug, ids);
  let request = t.http[route.method](url).set(as(a.hotel.accessToken));
  if (query) request = request.query(query);
  const response = await (route.request?.body ? request.send(body ?? {}) : request);
  const record: Seen = {
    category,
    operation: operation.key,
    label: `${route.method.toUpperCase()} ${url}${query ? ` ?${JSON.stringify(query)}` : ''}${
      body ? ` ${JSON.stringify(body)}` : ''
    } [${label}]`,
    status: response.status,
    text: `${JSON.stringify(response.headers)}\n${response.text ?? ''}`,
    sent: `${url} ${JSON.stringify(query ?? {})} ${JSON.stringify(body ?? {})}`,
  };
  seen.push(record);
  return record;
}

function expectStatus(result: Seen, ok: (status: number) => boolean, expected: string, category = result.category) {
  if (!ok(result.status)) {
    failures[category].push(
      `${result.label} → ${result.status} ${brief(result.text.split('\n')[1] ?? '')}; expected ${expected}`,
    );
  }
}

/**
 * What a control needs at the moment it is made, by `METHOD /path`. Cancelling A's seeded card reads the card on A's
 * encoder: once A's own issuances (the issue-card controls) are written, A's seeded card is placed on it.
 */
const CONTROL_SETUP: Record<string, () => Promise<void>> = {
  'POST /api/hotels/:slug/lockvendor/cards/:id/cancel': async () => {
    await until(
      async () => (await t.db('card_issuances').where({ hotel_id: a.hotel.hotelId, status: 'pending' })).length === 0,
      { what: () => "A's card issuances written by its desk", timeoutMs: 20_000 },
    );
    agentA.placeCard(a.canary);
  },
};

const is2xx = (status: number) => status >= 200 && status < 300;
const is4xx = (status: number) => status >= 400 && status < 500;

async function sweep() {
  // Own reads first, while A's records are as seeded: 2xx, and (checked with every answer below) none of B's data.
  for (const operation of operations.filter((op) => op.route.method === 'get')) {
    const result = await call({
      category: 'own-read',
      operation,
      slug: a.hotel.slug,
      ids: ownIds(operation, a),
      query: buildRequest(operation, 'query', a.records),
      label: "A's own slug and ids",
    });
    expectOwnStatus(result, operation);
  }

  const controls: (() => Promise<void>)[] = [];
  const unknownSlug = `gate-unknown-${randomUUID().slice(0, 8)}`;
  for (const operation of operations) {
    // (a) B's slug, B's ids, B-shaped body: refused as another hotel before anything else; an unknown slug the same.
    for (const { ids, label } of foreignIds(operation).concat(
      operation.params.length ? [] : [{ ids: {}, label: '' }],
    )) {
      for (const [category, slug] of [
        ['foreign-slug', b.hotel.slug],
        ['unknown-slug', unknownSlug],
      ] as const) {
        const result = await call({
          category,
          operation,
          slug,
          ids,
          body: buildRequest(operation, 'body', b.records),
          query: buildRequest(operation, 'query', b.records),
          label: `${category === 'foreign-slug' ? "B's slug" : 'unknown slug'} ${label}`.trim(),
        });
        expectStatus(
          result,
          (status) => status === 403 && result.text.includes(FOREIGN_HOTEL),
          `403 "${FOREIGN_HOTEL}"`,
        );
      }
    }

    // (b) A's slug, B's ids in the path (alone or beside A's): not found.
    const exception = PATH_ID_STATUS_EXCEPTIONS[operation.key];
    for (const { ids, label } of mixedIds(operation)) {
      const result = await call({
        category: 'path-ids',
        operation,
        slug: a.hotel.slug,
        ids,
        body: buildRequest(operation, 'body', a.records),
        query: buildRequest(operation, 'query', a.records),
        label: `A's slug ${label}`,
      });
      expectStatus(
        result,
        (status) => status === 404 || status === exception?.status,
        exception ? `404 or ${exception.status} (${exception.reason})` : '404',
      );
    }

    // (c) and (d): A's slug and path ids, one id field of the body or query set to B's record: refused (4xx);
    // a query filter may also answer 2xx, without any of B's data (checked below). Then the same request with A's
    // own id must succeed, so the refusal is the foreign id's doing.
    for (const what of ['body', 'query'] as const) {
      const fields = what === 'body' ? operation.bodyIdFields : operation.queryIdFields;
      const template = what === 'body' ? operation.bodyTemplate : operation.queryTemplate;
      for (const { field, kind } of fields) {
        for (const { build, uncontrolled } of buildersFor(template, field)) {
          const own = () => (build ? build(a.records, next()) : buildRequest(operation, what, a.records)!);
          const foreign = structuredClone(own());
          setPath(foreign, field, b.records[kind]);
          const category = what === 'body' ? 'body-ids' : 'query-ids';
          const result = await call({
            category,
            operation,
            slug: a.hotel.slug,
            ids: ownIds(operation, a),
            [what]: foreign,
            ...(what === 'body' && { query: buildRequest(operation, 'query', a.records) }),
            label: `${what} ${field}=B.${kind}`,
          });
          // A 409 would mean B's record reached the database and collided with B's rows: refused too late, and an
          // oracle of B's data.
          if (what === 'body') {
            expectStatus(
              result,
              (status) => is4xx(status) && status !== 409,
              is2xx(result.status)
                ? `4xx: ${operation.key} accepted B's ${kind} in ${field}`
                : `4xx other than 409 (a conflict means B's ${kind} reached the database)`,
            );
          } else expectStatus(result, (status) => is4xx(status) || is2xx(status), '4xx, or 2xx without B data');
          if (!uncontrolled && (what === 'query' || template?.control)) {
            controls.push(async () => {
              await CONTROL_SETUP[operation.key]?.();
              const mine = own();
              setPath(mine, field, a.records[kind]);
              const control = await call({
                category: 'control',
                operation,
                slug: a.hotel.slug,
                ids: ownIds(operation, a),
                [what]: mine,
                ...(what === 'body' && { query: buildRequest(operation, 'query', a.records) }),
                label: `control: ${what} ${field}=A.${kind}`,
              });
              expectStatus(control, is2xx, "2xx with A's own ids (else the template proves nothing)");
            });
          }
        }
      }
    }
  }

  for (const control of controls) await control();

  // (f) A's own writes without path ids (settings, creations, read-all): succeed, and touch nothing of B's.
  for (const operation of operations) {
    if (operation.route.method === 'get' || operation.params.length > 0 || operation.bodyIdFields.length > 0) continue;
    const result = await call({
      category: 'own-write',
      operation,
      slug: a.hotel.slug,
      ids: {},
      body: buildRequest(operation, 'body', a.records),
      query: buildRequest(operation, 'query', a.records),
      label: "A's own slug",
    });
    expectOwnStatus(result, operation);
  }

  // Not a hotel route, but B's data: A cannot delete B's uploaded file (404).
  const removal = await t.http.delete('/api/upload').query({ url: b.records.upload }).set(as(a.hotel.accessToken));
  const removed: Seen = {
    category: 'foreign-upload',
    label: `DELETE /api/upload?url=B.upload`,
    status: removal.status,
    text: `${JSON.stringify(removal.headers)}\n${removal.text ?? ''}`,
    sent: b.records.upload,
  };
  seen.push(removed);
  expectStatus(removed, (status) => status === 404, '404');

  // The staff socket of A cannot be opened on B (nor an unknown hotel).
  for (const slug of [b.hotel.slug, unknownSlug]) {
    const status = await handshakeStatus(t.wsUrl, a.hotel.accessToken, { hotel: slug });
    seen.push({ category: 'realtime-handshake', label: `WS /ws?hotel=${slug}`, status, text: '', sent: slug });
    if (status !== 403) failures['realtime-handshake'].push(`WS /ws?hotel=${slug} → ${status}; expected 403`);
  }
}

/**
 * B's ids that A itself got accepted in a body (each already a body-ids failure): A's later answers and events may
 * carry them back, which is that defect again, not another leak.
 */
function acceptedForeignIds(): Set<string> {
  const accepted = new Set<string>();
  for (const result of seen) {
    if (result.category !== 'body-ids' || !is2xx(result.status)) continue;
    for (const id of bIds) if (result.sent.toLowerCase().includes(id)) accepted.add(id);
  }
  return accepted;
}

/** B's ids in `text`, but those A got accepted itself. */
function foreignIdsIn(text: string): string[] {
  const accepted = acceptedForeignIds();
  return [...bIds].filter((id) => text.includes(id) && !accepted.has(id));
}

function checkLeaks() {
  const canary = b.canary.toLowerCase();
  for (const result of seen) {
    const text = result.text.toLowerCase();
    if (text.includes(canary)) {
      failures.leak.push(`${result.label} → ${result.status}: the answer carries B's canary: ${brief(result.text)}`);
    }
    const ids = foreignIdsIn(text);
    const unexplained = is2xx(result.status) ? ids : ids.filter((id) => !result.sent.toLowerCase().includes(id));
    if (unexplained.length > 0) {
      failures.leak.push(`${result.label} → ${result.status}: the answer names B's ids ${unexplained.join(', ')}`);
    }
  }
}

async function waitFor(client: StaffClient, what: string, predicate: (message: RealtimeMessage) => boolean) {
  await until(() => client.collected.some(predicate), {
    what: () => `${what} on the socket; got ${JSON.stringify(client.collected)}`,
    timeoutMs: 10_000,
  });
}

const event = (type: string, field: string, id: string) => (message: RealtimeMessage) =>
  message.type === type && message.payload?.[field] === id;

/** Declares the gate's hooks and tests on `gateScope` (once per test file: the gate's state is this file's). */
export function crossHotelGate(gateScope: GateScope = {}): void {
  scope = gateScope;
  beforeAll(async () => {
    t = await startTestServer({}, { modules: scope.modules });
    addresses = recordAddresses(scope.modules);
    templates = requestTemplates(scope.modules);
    const [canaryA, canaryB] = [newCanary(), newCanary()];
    const [hotelA, hotelB] = await Promise.all([registerCanaryHotel(t, canaryA), registerCanaryHotel(t, canaryB)]);
    [socketA, socketB] = await Promise.all([
      connectStaff(t.wsUrl, hotelA.accessToken),
      connectStaff(t.wsUrl, hotelB.accessToken),
    ]);
    [a, b] = await Promise.all([
      seedHotel(t, hotelA, canaryA, scope.modules),
      seedHotel(t, hotelB, canaryB, scope.modules),
    ]);
    // Its ports: the seed's encoder (COM3) and fiscal register (COM4).
    agentA = await connectAgent(t, a.hotel, a.records.workstation, { ports: ['COM1', 'COM3', 'COM4'] });

    // B's own events reach B (so the socket checks below are not vacuous).
    await waitFor(socketB, "B's task event", event('housekeeping_task_created', 'task_id', b.records.task));
    await waitFor(socketB, "B's booking event", event('booking_created', 'booking_id', b.records.booking));
    await waitFor(socketB, "B's notification", event('notification:new', 'notification_id', b.records.notification));

    // The snapshot is taken once the workflows B's records started are at rest (their e-mails and pushes done).
    const lanes = [a.hotel.slug, b.hotel.slug];
    before = await settledSnapshot(t.db, b.hotel.hotelId, lanes);
    bIds = uuidsOf(before);
    for (const id of uuidsOf(await snapshotHotel(t.db, a.hotel.hotelId))) bIds.delete(id);

    const declared = hotelRoutes();
    operations = plan(declared);
    await sweep();
    coverage = compareCoverage(
      declared.map(operationKey),
      seen.filter((result) => result.category === 'foreign-slug').map((result) => result.operation!),
    );
    // Including whatever A's requests handed to workflows.
    after = await settledSnapshot(t.db, b.hotel.hotelId, lanes);
    for (const { table, removed, added } of snapshotDiff(before, after)) {
      failures.unchanged.push(`${table}: before ${JSON.stringify(removed)}, after ${JSON.stringify(added)}`);
    }
    checkLeaks();

    // B produces more events after the sweep: a room, an urgent repair closing it. B hears them; A must not.
    const api = (path: string) => `/api/hotels/${b.hotel.slug}${path}`;
    const room = await t.http
      .post(api('/rooms'))
      .set(as(b.hotel.accessToken))
      .send({ number: `${b.canary.slice(0, 14)}x`, name: `Late ${b.canary}`, category_id: b.records.category })
      .expect(201);
    const task = await t.http
      .post(api('/housekeeping'))
      .set(as(b.hotel.accessToken))
      .send({ room_id: room.body.id, category: 'maintenance', priority: 'urgent', notes: `Leak ${b.canary}` })
      .expect(201);
    await waitFor(socketB, "B's late task event", event('housekeeping_task_created', 'task_id', task.body.id));
    await waitFor(socketB, "B's late room event", event('room_updated', 'room_id', room.body.id));
    // Events go out in commit order: once an event of A committed after B's has reached A, B's would have too.
    const marker = await t.http
      .post(`/api/hotels/${a.hotel.slug}/housekeeping`)
      .set(as(a.hotel.accessToken))
      .send({ category: 'maintenance' })
      .expect(201);
    await waitFor(socketA, "A's marker task event", event('housekeeping_task_created', 'task_id', marker.body.id));
    for (const id of [room.body.id as string, task.body.id as string]) bIds.add(id);
    for (const message of socketA.collected) {
      const text = JSON.stringify(message).toLowerCase();
      const ids = foreignIdsIn(text);
      if (text.includes(b.canary) || ids.length > 0) {
        failures.realtime.push(`A's socket received B's ${message.type}: ${JSON.stringify(message)}`);
      }
    }
  }, 600_000);

  afterAll(async () => {
    const attempts = seen.filter((result) => ATTEMPT_CATEGORIES.includes(result.category)).length;
    const problems = Object.values(failures).reduce((sum, list) => sum + list.length, 0);
    const byCategory = ATTEMPT_CATEGORIES.map(
      (category) => `${category} ${seen.filter((r) => r.category === category).length}`,
    ).join(', ');
    const leaks = failures.leak.length + failures.realtime.length;
    const summary = `${attempts} attempts on ${operations.length} operations (${coverage?.figure} covered), ${
      problems === 0
        ? '0 leaks'
        : `${problems} failures (${leaks} leaks, ${failures.unchanged.length} tables of B changed)`
    }`;
    console.log(
      `cross-hotel gate: ${summary} [${byCategory}; controls ${seen.filter((r) => r.category === 'control').length}]`,
    );
    if (operations.length > 0 && !scope.only) reportGate('cross-hotel', summary);
    await agentA?.stop();
    await socketA?.close();
    await socketB?.close();
    await t?.close();
  });

  describe('cross-hotel gate', () => {
    it('covers every hotel route: each path parameter, id field and request body can be filled', () => {
      // And by name, both ways: a route left out of the sweep, or a module the registry dropped, fails here.
      expect(operations.length).toBeGreaterThan(0);
      expect([...failures.coverage, ...coverageProblems(coverage!, scope.modules)]).toEqual([]);
    });

    it("refuses A's owner on B's slug, and on an unknown slug, with the same 403; B's uploads stay B's", () => {
      expect(failures['foreign-slug']).toEqual([]);
      expect(failures['unknown-slug']).toEqual([]);
      expect(failures['foreign-upload']).toEqual([]);
    });

    it("answers 404 for B's ids in the path of A's own slug", () => {
      expect(failures['path-ids']).toEqual([]);
    });

    it("refuses B's ids in a body (4xx), while the same request with A's own ids succeeds", () => {
      expect(failures['body-ids']).toEqual([]);
      expect(failures.control).toEqual([]);
    });

    it("answers B's ids in a query with a 4xx or without B's data", () => {
      expect(failures['query-ids']).toEqual([]);
    });

    it("serves A's own reads and writes (2xx) without any of B's data", () => {
      expect(failures['own-read']).toEqual([]);
      expect(failures['own-write']).toEqual([]);
    });

    it("leaves every row of B's unchanged", () => {
      expect(before).toBeDefined();
      expect(failures.unchanged).toEqual([]);
    });

    it("never answers with B's canary text, nor (in a 2xx) with B's ids", () => {
      expect(failures.leak).toEqual([]);
    });

    it("keeps B's events off A's staff socket, while each hotel hears its own", () => {
      expect(failures['realtime-handshake']).toEqual([]);
      expect(failures.realtime).toEqual([]);
      expect(socketA.collected.some((message) => message.type === 'housekeeping_task_created')).toBe(true);
    });
  });
}
