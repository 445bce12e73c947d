import { randomUUID } from 'node:crypto';
import type Joi from 'joi';
import type { RouteDefinition } from '../../src/platform/http/route';
import { MODULES } from '../../src/modules/registry';
import { day, type RequestTemplate } from '../../src/platform/fixtures';
import type { AnyModule } from '../../src/platform/modules';
import { recordAddresses, type RecordAddresses, type RecordKind } from './tenant-fixture';

/**
 * How the cross-hotel sweep fills a hotel route: which record kind each path parameter and each id field of a body or
 * query names, and a minimal valid body or query where one cannot be derived from the route's joi schema (both
 * declared by the modules' `fixtures`, beside their seeds). A route the sweep cannot fill fails the gate, naming
 * what to declare.
 */

/** Where the registry's modules say requests name their records (`fixtures.records` of each). */
export const { paths: PATH_PARAM_KINDS, fields: FIELD_KINDS } = recordAddresses();

export type Records = Record<RecordKind, string>;
export type { RequestBuilder as Builder, RequestTemplate } from '../../src/platform/fixtures';

/** The modules' request templates (`fixtures.requests`), by `METHOD /path`; a route given two is an error. */
export function requestTemplates(modules: readonly AnyModule[] = MODULES): {
  body: Record<string, RequestTemplate>;
  query: Record<string, RequestTemplate>;
} {
  const templates = { body: {} as Record<string, RequestTemplate>, query: {} as Record<string, RequestTemplate> };
  for (const module of modules) {
    for (const what of ['body', 'query'] as const) {
      for (const [key, template] of Object.entries(module.fixtures?.requests?.[what] ?? {})) {
        if (templates[what][key]) throw new Error(`two ${what} templates for ${key}`);
        templates[what][key] = template;
      }
    }
  }
  return templates;
}

/** Bodies and queries of the registry's routes by `METHOD /path`. */
export const { body: BODY_TEMPLATES, query: QUERY_TEMPLATES } = requestTemplates();

// ---- the joi schemas, read through describe() --------------------------------------------------------------

interface Description {
  type?: string;
  flags?: { presence?: string; only?: boolean };
  allow?: unknown[];
  keys?: Record<string, Description>;
  items?: Description[];
  rules?: { name: string; args?: { limit?: number } }[];
  matches?: { schema?: Description; then?: Description; otherwise?: Description }[];
}

const describeSchema = (schema: Joi.Schema) => schema.describe() as Description;

/**
 * Fields named like ids that name no record of this service, by field name: a payment provider's shop id is the
 * provider's (hotels may even share a shop), a device's number in its fiscal driver is the driver's, and a lock cloud's
 * app and lock ids are TTLock's, and a TV server's address is the hotel's own system, so another hotel's value there
 * trespasses on nothing.
 */
const EXTERNAL_IDS: ReadonlySet<string> = new Set([
  'shop_id',
  'dto_device_id',
  'client_id',
  'lock_id',
  'server_url',
  // A browser's push service address, a webhook receiver's: each hotel keeps its own subscription row for it.
  'endpoint',
]);

/** A field naming a record: a UUID, an `..._id` name, or a URL (such as an uploaded photo). */
function isReference(name: string, description: Description): boolean {
  if (EXTERNAL_IDS.has(name)) return false;
  const rules = (description.rules ?? []).map((rule) => rule.name);
  return (
    (description.type === 'string' && (rules.includes('guid') || rules.includes('uri'))) ||
    /(^id|_id|Id|_ids|Ids)$/.test(name)
  );
}

/**
 * Paths of the fields of an object schema that name records: `room_id`, `prices[].category_id`, `items[].item_id`,
 * `photos[]`.
 */
export function idFieldsOf(schema: Joi.Schema | undefined): string[] {
  if (!schema) return [];
  const found: string[] = [];
  const walk = (description: Description, path: string, name: string) => {
    // A list of ids (`room_ids`) names records by its items: `room_ids[]`.
    if (path && description.type !== 'array' && isReference(name, description)) {
      found.push(path);
      return;
    }
    for (const [key, child] of Object.entries(description.keys ?? {})) walk(child, path ? `${path}.${key}` : key, key);
    for (const item of description.items ?? []) walk(item, `${path}[]`, name);
    for (const match of description.matches ?? []) {
      for (const branch of [match.schema, match.then, match.otherwise]) if (branch) walk(branch, path, name);
    }
  };
  walk(describeSchema(schema), '', '');
  return [...new Set(found)];
}

export function fieldKind(
  route: RouteDefinition,
  field: string,
  fields: RecordAddresses['fields'] = FIELD_KINDS,
): RecordKind | undefined {
  const name = field.split('.').pop()!.replace(/\[\]$/, '');
  return fields[`${route.method.toUpperCase()} ${route.path} ${field}`] ?? fields[name];
}

/**
 * Sets `value` at `path`: `prices[].category_id` sets the first element's, `photos[]` makes the list `[value]`;
 * false if the path is not there.
 */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): boolean {
  const segments = path.split('.');
  let node: Record<string, unknown> = target;
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    if (segment.endsWith('[]') && last) {
      node[segment.slice(0, -2)] = [value];
    } else if (segment.endsWith('[]')) {
      const list = node[segment.slice(0, -2)];
      if (!Array.isArray(list) || list.length === 0) return false;
      node = list[0] as Record<string, unknown>;
    } else if (last) {
      node[segment] = value;
    } else {
      const child = node[segment];
      if (typeof child !== 'object' || child === null) return false;
      node = child as Record<string, unknown>;
    }
  }
  return true;
}

const VALIDATION = { abortEarly: false, stripUnknown: true, convert: true } as const;

export function validationError(schema: Joi.Schema, value: unknown): string | undefined {
  return schema.validate(value, VALIDATION).error?.message;
}

function candidates(description: Description, n: number): unknown[] {
  const allowed = (description.allow ?? []).filter((value) => value !== null && value !== '');
  if (description.flags?.only) return allowed;
  switch (description.type) {
    case 'string':
      return [
        `Gate ${n}`,
        `gate-${n}-${randomUUID().slice(0, 8)}@example.test`,
        day(n, '2035-01-01'),
        '12:00',
        `gate-${n}.example.test`,
        ...allowed,
      ];
    case 'number':
      return [1, 10, 0];
    case 'boolean':
      return [true, false];
    case 'date':
      return [new Date(Date.parse('2035-01-01T12:00:00Z') + n * 3_600_000).toISOString()];
    case 'alternatives':
      return [100, '100', true, `Gate ${n}`];
    case 'array':
      return [[]];
    case 'object':
      return [{}];
    default:
      return [];
  }
}

/**
 * A minimal valid value of an object schema without id fields: its required keys, or (for a `min(1)` patch) the
 * first key that can be filled; undefined when no combination of probe values passes the schema.
 */
export function deriveMinimal(schema: Joi.ObjectSchema, n: number): Record<string, unknown> | undefined {
  const description = describeSchema(schema);
  const keys = Object.entries(description.keys ?? {});
  const valueFor = (key: string, child: Description) =>
    candidates(child, n).find((value) => !schema.extract(key).validate(value, VALIDATION).error);
  const body: Record<string, unknown> = {};
  for (const [key, child] of keys) {
    if (child.flags?.presence !== 'required') continue;
    const value = valueFor(key, child);
    if (value === undefined) return undefined;
    body[key] = value;
  }
  if (!validationError(schema, body)) return body;
  for (const [key, child] of keys) {
    if (key in body || child.flags?.presence === 'forbidden') continue;
    const value = valueFor(key, child);
    if (value !== undefined && !validationError(schema, { ...body, [key]: value })) return { ...body, [key]: value };
  }
  return undefined;
}
