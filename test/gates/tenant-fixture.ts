import { randomBytes } from 'node:crypto';
import { MODULES } from '../../src/modules/registry';
import { BOOKKEEPING } from '../../src/platform/db/audit-tables';
import type { Db } from '../../src/platform/db/knex';
import type { FixtureHotel, FixtureRequest } from '../../src/platform/fixtures';
import type { AnyModule } from '../../src/platform/modules';
import { fakeChannexControl } from '../fakes/channex';
import { fakeTTLockControl } from '../fakes/ttlock';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import type { TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { outboxWorkflowsAtRest, withTemporal } from '../helpers/workflows';

/**
 * One record of every kind a hotel owns, so the cross-hotel gate can aim another hotel's requests at them: built from
 * the modules' `fixtures` declarations (`src/platform/fixtures.ts`), each module seeding its own records through the
 * API (and, for rows no route makes, as its workflows would), in the order their `needs` ask.
 */

/** A record kind a module declares (`room`, `booking`): the gates' name for one of its records. */
export type RecordKind = string;

/** Where requests name each kind: path prefixes up to the parameter, and body or query fields. */
export interface RecordAddresses {
  /** Record kinds by path prefix up to and including the parameter (`/.../rooms/:id` also covers `/.../rooms/:id/status`). */
  paths: Record<string, readonly RecordKind[]>;
  /**
   * Record kinds of id fields in bodies and queries, by field name (the last segment of `prices[].category_id`);
   * `METHOD /path field` entries take precedence where a name means something else on one route.
   */
  fields: Record<string, RecordKind>;
  /** Every kind some module declares. */
  kinds: RecordKind[];
}

/** The modules' declarations merged; a path or field claimed by two kinds (a field) is an error. */
export function recordAddresses(modules: readonly AnyModule[] = MODULES): RecordAddresses {
  const addresses: RecordAddresses = { paths: {}, fields: {}, kinds: [] };
  for (const module of modules) {
    for (const [kind, address] of Object.entries(module.fixtures?.records ?? {})) {
      if (!addresses.kinds.includes(kind)) addresses.kinds.push(kind);
      for (const path of address.paths ?? []) addresses.paths[path] = [...(addresses.paths[path] ?? []), kind];
      for (const field of address.fields ?? []) {
        if (addresses.fields[field])
          throw new Error(`field ${field} names both ${addresses.fields[field]} and ${kind}`);
        addresses.fields[field] = kind;
      }
    }
  }
  return addresses;
}

export interface SeededHotel {
  hotel: RegisteredHotel;
  /** Lower-case letters and digits, carried by every text field of the hotel's records. */
  canary: string;
  /** Ids of its records by kind, and for `upload` the URL of its uploaded photo. */
  records: Record<RecordKind, string>;
}

/** A fresh canary: `cnry` and 12 hex digits, unique enough that any occurrence in a response is a leak. */
export function newCanary(): string {
  return `cnry${randomBytes(6).toString('hex')}`;
}

/** Registers a hotel whose name, address, contact and owner e-mail carry `canary`. */
export function registerCanaryHotel(t: TestApp, canary: string): Promise<RegisteredHotel> {
  return registerHotel(t, {
    hotel_name: `Hotel ${canary}`,
    address: `Street ${canary}, 1`,
    contact: `Owner ${canary}`,
    email: `${canary}-owner@example.test`,
  });
}

/** The modules with a seed, in an order where each comes after those seeding the kinds it needs (else list order). */
export function seedOrder(modules: readonly AnyModule[]): AnyModule[] {
  const seeding = modules.filter((module) => module.fixtures?.seed);
  const producer = new Map<RecordKind, AnyModule>();
  for (const module of seeding) {
    for (const kind of Object.keys(module.fixtures!.records)) if (!producer.has(kind)) producer.set(kind, module);
  }
  const ordered: AnyModule[] = [];
  const visit = (module: AnyModule, path: string[]) => {
    if (ordered.includes(module)) return;
    if (path.includes(module.name)) throw new Error(`fixtures need each other: ${[...path, module.name].join(' → ')}`);
    for (const kind of module.fixtures!.needs ?? []) {
      const from = producer.get(kind);
      if (!from) throw new Error(`module ${module.name}'s fixtures need ${kind}, which no module declares`);
      if (from !== module) visit(from, [...path, module.name]);
    }
    ordered.push(module);
  };
  for (const module of seeding) visit(module, []);
  return ordered;
}

/** The owner's requests to the hotel, as a module's seed sends them: the body, or an error naming the answer. */
function requester(t: TestApp, hotel: RegisteredHotel): FixtureHotel['request'] {
  return async <T>(path: string, options: FixtureRequest = {}) => {
    const { method = 'post', body, query, headers, file, anonymous } = options;
    const url = path.startsWith('/api/') ? path : `/api/hotels/${hotel.slug}${path}`;
    let request = t.http[method](url).set({ ...(!anonymous && as(hotel.accessToken)), ...headers });
    if (query) request = request.query(query);
    if (file) request = request.attach('file', file.content, { filename: file.name, contentType: file.contentType });
    const response = await (body ? request.send(body) : request);
    if (response.status !== (options.status ?? (method === 'post' ? 201 : 200))) {
      throw new Error(`seeding ${method.toUpperCase()} ${path}: ${response.status} ${response.text}`);
    }
    return response.body as T;
  };
}

/**
 * Seeds `hotel` with one record of every kind the modules declare, each text field carrying `canary`: every module's
 * `fixtures.seed` in `seedOrder`, given the records seeded before it. A seed that returns a kind its module does not
 * declare, or a declared kind no seed makes, is an error.
 */
export async function seedHotel(
  t: TestApp,
  hotel: RegisteredHotel,
  canary: string,
  modules: readonly AnyModule[] = MODULES,
): Promise<SeededHotel> {
  const records: Record<RecordKind, string> = {};
  const context: Omit<FixtureHotel, 'records'> = {
    hotelId: hotel.hotelId,
    slug: hotel.slug,
    ownerId: hotel.userId,
    canary,
    request: requester(t, hotel),
    db: t.db,
    outside: {
      ttlock: (account) => fakeTTLockControl(t.config.ttlock.apiUrls.EU).registerAccount(account as never),
      // The API root ends in /api/v1; the controls are at the fake's root.
      channex: ({ id, ...spec }: { id?: string }) =>
        fakeChannexControl(new URL(t.config.channex.apiUrl).origin).openProperty(id!, spec as never),
    },
    localDay,
  };
  const services = t.services as unknown as Record<string, unknown>;
  for (const module of seedOrder(modules)) {
    const made = await module.fixtures!.seed!({ ...context, records: { ...records } }, services[module.name]);
    for (const [kind, id] of Object.entries(made)) {
      if (!(kind in module.fixtures!.records)) throw new Error(`module ${module.name} seeded ${kind}, not declared`);
      records[kind] = id;
    }
  }
  const unseeded = recordAddresses(modules).kinds.filter((kind) => !(kind in records));
  if (unseeded.length > 0) throw new Error(`declared record kinds no module seeds: ${unseeded.join(', ')}`);
  return { hotel, canary, records };
}

/** Every row of every table with a `hotel_id` column (and the hotel's own row), as sorted JSON text per table. */
export type HotelSnapshot = Record<string, string[]>;

export async function hotelTables(db: Db): Promise<string[]> {
  const rows = (await db('information_schema.columns')
    .where({ table_schema: 'public', column_name: 'hotel_id' })
    .orderBy('table_name')
    .select('table_name')) as { table_name: string }[];
  return rows.map((row) => row.table_name);
}

/** What a hotel's own background sync keeps of its last run (the channel's last pushed values), left out. */
const SYNC_STATE = ['channel_ari_pushed'];

export async function snapshotHotel(db: Db, hotelId: string): Promise<HotelSnapshot> {
  const snapshot: HotelSnapshot = {};
  const hotels = await db.raw('SELECT row_to_json(x)::text AS j FROM hotels x WHERE id = ?', [hotelId]);
  snapshot.hotels = (hotels.rows as { j: string }[]).map((row) => row.j);
  for (const table of await hotelTables(db)) {
    if (SYNC_STATE.includes(table)) continue;
    // A row's bookkeeping (a heartbeat, a sync's last run) moves by itself: no change anyone made.
    const result = await db.raw(
      'SELECT (row_to_json(x)::jsonb - ?::text[])::text AS j FROM ?? x WHERE hotel_id = ? ORDER BY 1',
      [[...(BOOKKEEPING[table] ?? [])], table, hotelId],
    );
    snapshot[table] = (result.rows as { j: string }[]).map((row) => row.j);
  }
  return snapshot;
}

/** The tables whose rows differ, each with the rows only before and only after. */
export function snapshotDiff(before: HotelSnapshot, after: HotelSnapshot) {
  const diffs: { table: string; removed: string[]; added: string[] }[] = [];
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = new Set(before[table] ?? []);
    const is = new Set(after[table] ?? []);
    const removed = [...was].filter((row) => !is.has(row));
    const added = [...is].filter((row) => !was.has(row));
    if (removed.length > 0 || added.length > 0) diffs.push({ table, removed, added });
  }
  return diffs;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Every UUID in the snapshot: the ids of the hotel's rows and those they point at. */
export function uuidsOf(snapshot: HotelSnapshot): Set<string> {
  const ids = new Set<string>();
  for (const rows of Object.values(snapshot)) {
    for (const row of rows) for (const match of row.match(UUID) ?? []) ids.add(match.toLowerCase());
  }
  return ids;
}

/**
 * The hotel's rows once the work handed to workflows in `lanes` (hotel slugs) is done: every outbox message of those
 * hotels delivered and the workflow it addresses at rest (its e-mails sent, its pushes done).
 */
export async function settledSnapshot(db: Db, hotelId: string, lanes: string[]): Promise<HotelSnapshot> {
  await withTemporal((client) =>
    outboxWorkflowsAtRest(db, client, (outbox) => outbox.whereIn('lane', lanes), {
      what: `the workflows of ${lanes.join(', ')}`,
      timeoutMs: 60_000,
    }),
  );
  return snapshotHotel(db, hotelId);
}
