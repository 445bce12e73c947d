import type Joi from 'joi';
import joiToJson from 'joi-to-json';
import { COMPONENT_META_KEY } from './components';

export type JsonSchema = Record<string, unknown>;

const CALENDAR_DATE_PATTERN = String.raw`^\d{4}-\d{2}-\d{2}$`;
const COMPOSITIONS = ['anyOf', 'allOf', 'oneOf'] as const;

/**
 * OpenAPI 3.0 reads `nullable` only beside a `type`: a nullable composition (e.g. `money.allow(null)`, an `allOf` of
 * `anyOf`s) says it on every typed branch instead, which admits `null` exactly where the composition did.
 */
function makeNullable(node: JsonSchema): void {
  if (node.type !== undefined) {
    node.nullable = true;
    return;
  }
  for (const key of COMPOSITIONS) {
    const branches = node[key] as JsonSchema[] | undefined;
    // oneOf must stay exclusive: one branch admitting null is enough.
    for (const branch of key === 'oneOf' ? (branches ?? []).slice(0, 1) : (branches ?? [])) makeNullable(branch);
  }
}

/**
 * joi-to-json gives a nullable alternatives schema (e.g. `money.allow(null)`) `type: object` next to its
 * `allOf`/`anyOf`, which would refuse the very strings the alternatives allow; the alternatives already say the type.
 */
function repair(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(repair);
  if (!schema || typeof schema !== 'object') return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, repair(value)])) as JsonSchema;
  if (node.type === 'object' && !node.properties && COMPOSITIONS.some((key) => node[key])) delete node.type;
  if (node.nullable === true && node.type === undefined) {
    delete node.nullable;
    makeNullable(node);
  }
  // A string held to the shape YYYY-MM-DD (the calendar dates of schemas.ts) is a full-date.
  if (node.type === 'string' && node.pattern === CALENDAR_DATE_PATTERN) node.format = 'date';
  return node;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

interface JoiDescription {
  type?: unknown;
  flags?: Record<string, unknown>;
  allow?: unknown[];
  rules?: { name: string }[];
  metas?: Record<string, unknown>[];
  preferences?: Record<string, unknown>;
  link?: unknown;
}

function componentName(node: JoiDescription): string | undefined {
  const meta = node.metas?.find((candidate) => typeof candidate[COMPONENT_META_KEY] === 'string');
  return meta?.[COMPONENT_META_KEY] as string | undefined;
}

function convert(description: JoiDescription): JsonSchema {
  return repair(joiToJson({ describe: () => description } as unknown as Joi.Schema, 'open-api')) as JsonSchema;
}

/** An answer's description: every field is sent unless marked `.optional()` (joi's default suits requests instead). */
function sentInFull(description: JoiDescription): JoiDescription {
  return { ...description, preferences: { presence: 'required', ...description.preferences } };
}

/**
 * Says in the description what joi means but joi-to-json leaves out. A `Joi.date()` that carries any flag
 * (`.required()`, `.allow(null)`...) but no `.iso()` is read as a timestamp number, while in JSON a date travels as
 * an ISO 8601 string; and `Joi.string()` refuses the empty string unless it is allowed.
 */
function normalizeNode(node: JoiDescription): JoiDescription {
  const flags = node.flags ?? {};
  if (node.type === 'date' && flags.format === undefined) node.flags = { ...flags, format: 'iso' };
  const rules = node.rules ?? [];
  const emptyAllowed =
    (node.allow ?? []).includes('') ||
    flags.empty !== undefined ||
    flags.only === true ||
    rules.some((r) => r.name === 'min' || r.name === 'length');
  if (node.type === 'string' && !emptyAllowed)
    node.rules = [...rules, { name: 'min', args: { limit: 1 } }] as JoiDescription['rules'];
  return node;
}

export interface SchemaConverter {
  /** `answer`: the schema describes a response, whose fields are all sent unless marked `.optional()`. */
  toSchema(schema: Joi.Schema, options?: { answer?: boolean }): JsonSchema;
  /** The schemas named with `component()` met so far, by name (every one describes an answer). */
  components(): Record<string, JsonSchema>;
}

/**
 * Turns joi schemas into OpenAPI 3.0 schemas. A schema named with `component()` is described once and referenced by
 * `$ref` wherever it appears.
 */
export function createSchemaConverter(): SchemaConverter {
  const named = new Map<string, { description: JoiDescription; schema: JsonSchema }>();

  /** Registers `node` as the component `name`; the link keeps whether the field that holds it is required. */
  function link(name: string, node: JoiDescription): JoiDescription {
    const { presence, ...ownFlags } = node.flags ?? {};
    const definition = { ...node, flags: ownFlags, metas: node.metas?.filter((meta) => !(COMPONENT_META_KEY in meta)) };
    const known = named.get(name);
    if (!known) named.set(name, { description: definition, schema: convert(sentInFull(definition)) });
    else if (JSON.stringify(known.description) !== JSON.stringify(definition)) {
      throw new Error(`Two different schemas are named ${name} for OpenAPI`);
    }
    return {
      type: 'link',
      flags: presence === undefined ? {} : { presence },
      link: { ref: { type: 'local', path: [name] } },
    };
  }

  function normalize(description: unknown): unknown {
    if (Array.isArray(description)) return description.map(normalize);
    if (!isPlainObject(description)) return description;
    const node = normalizeNode(
      Object.fromEntries(Object.entries(description).map(([key, value]) => [key, normalize(value)])) as JoiDescription,
    );
    const name = componentName(node);
    return name ? link(name, node) : node;
  }

  return {
    toSchema(schema, { answer = false } = {}) {
      const description = normalize(schema.describe()) as JoiDescription;
      return convert(answer ? sentInFull(description) : description);
    },
    components: () => Object.fromEntries([...named].map(([name, { schema }]) => [name, schema])),
  };
}
