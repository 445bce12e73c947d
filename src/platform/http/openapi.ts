import Joi from 'joi';
import joiToJson from 'joi-to-json';
import type { MultipartSpec, RouteDefinition } from './route';

type JsonSchema = Record<string, unknown>;

const errorSchema = Joi.object({
  error: Joi.string().required(),
  details: Joi.array().items(Joi.object({ path: Joi.string(), message: Joi.string() })),
  errors: Joi.array().items(Joi.string()),
});

const CALENDAR_DATE_PATTERN = String.raw`^\d{4}-\d{2}-\d{2}$`;

/**
 * joi-to-json gives a nullable alternatives schema (e.g. `money.allow(null)`) `type: object` next to its
 * `allOf`/`anyOf`, which would refuse the very strings the alternatives allow; the alternatives already say the type.
 */
function repair(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(repair);
  if (!schema || typeof schema !== 'object') return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, repair(value)])) as JsonSchema;
  if (node.type === 'object' && !node.properties && (node.allOf || node.anyOf || node.oneOf)) delete node.type;
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
}

/**
 * Says in the description what joi means but joi-to-json leaves out. A `Joi.date()` that carries any flag
 * (`.required()`, `.allow(null)`...) but no `.iso()` is read as a timestamp number, while in JSON a date travels as
 * an ISO 8601 string; and `Joi.string()` refuses the empty string unless it is allowed.
 */
function normalize(description: unknown): unknown {
  if (Array.isArray(description)) return description.map(normalize);
  if (!isPlainObject(description)) return description;
  const node = Object.fromEntries(
    Object.entries(description).map(([key, value]) => [key, normalize(value)]),
  ) as JoiDescription;
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

function toSchema(schema: Joi.Schema): JsonSchema {
  const description = normalize(schema.describe());
  return repair(joiToJson({ describe: () => description } as unknown as Joi.Schema, 'open-api')) as JsonSchema;
}

function errorResponse(description: string, headers?: Record<string, JsonSchema>) {
  return {
    description,
    ...(headers && { headers }),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/**
 * The refusals the platform itself makes for a route, by its declaration alone (mount, validation, body parser,
 * tenancy, rate limits), so that every operation documents every status it can answer.
 */
function platformErrors(route: RouteDefinition): Record<number, JsonSchema> {
  const request = route.request ?? {};
  const errors: Record<number, JsonSchema> = {};
  if (request.params || request.query || request.body || request.multipart) {
    errors[400] = errorResponse('Validation failed; `details` lists every problem.');
  }
  if (route.access.kind !== 'public') errors[401] = errorResponse('Missing, invalid or expired access token.');
  if (route.access.kind === 'hotel') {
    errors[403] = errorResponse('Another hotel (or one that does not exist), or a role without access.');
  }
  if (/:(?!slug\b)\w+/.test(route.path)) errors[404] = errorResponse('No such record in this hotel.');
  if (request.body || request.multipart) errors[413] = errorResponse('The body is larger than allowed.');
  if (request.multipart) errors[415] = errorResponse('The content is of a kind this route does not accept.');
  // Node.js refuses a request line and headers over its limit before the application sees them, without a body.
  if (request.params || request.query) {
    errors[431] = { description: 'The URL (with its parameters) and headers are larger than the server accepts.' };
  }
  if (route.rateLimit) {
    errors[429] = errorResponse('Too many attempts; see the Retry-After header.', {
      'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } },
    });
  }
  return errors;
}

function describeAccess(route: RouteDefinition): string {
  const access = route.access;
  if (access.kind === 'public') return 'Access: public.';
  if (access.kind === 'authenticated') return 'Access: any signed-in user.';
  return `Access: staff of the hotel with role ${access.roles.join(', ')} (and super_admin).`;
}

function parameters(route: RouteDefinition) {
  const list: JsonSchema[] = [];
  for (const location of ['path', 'query'] as const) {
    const joiSchema = location === 'path' ? route.request?.params : route.request?.query;
    if (!joiSchema) continue;
    const schema = toSchema(joiSchema) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      list.push({
        name,
        in: location,
        required: location === 'path' || (schema.required ?? []).includes(name),
        schema: property,
      });
    }
  }
  return list;
}

function multipartBody(multipart: MultipartSpec) {
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: [multipart.field],
          properties: {
            [multipart.field]: { type: 'string', format: 'binary', description: multipart.description },
          },
        },
      },
    },
  };
}

/** `get /api/hotels/{slug}/rooms/{id}` → `getHotelsBySlugRoomsById` */
function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((segment) => segment && segment !== 'api')
    .map((segment) => segment.replace(/^\{(\w+)\}$/, 'by-$1'))
    .flatMap((segment) => segment.split(/[-_]/))
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return method + words.join('');
}

function operation(route: RouteDefinition, path: string) {
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const headers = response.headers && {
      headers: Object.fromEntries(
        Object.entries(response.headers).map(([name, description]) => [
          name,
          { description, schema: { type: 'string' } },
        ]),
      ),
    };
    // A declared refusal without its own schema answers the platform's error body.
    const content = response.schema
      ? { 'application/json': { schema: toSchema(response.schema) } }
      : Number(status) >= 400
        ? errorResponse(response.description).content
        : undefined;
    responses[status] = { description: response.description, ...headers, ...(content && { content }) };
  }
  for (const [status, response] of Object.entries(platformErrors(route))) responses[status] ??= response;
  return {
    operationId: operationId(route.method, path),
    summary: route.summary,
    description: [route.description, describeAccess(route)].filter(Boolean).join('\n\n'),
    tags: route.tags,
    'x-access': route.access,
    ...(route.access.kind !== 'public' && { security: [{ bearerAuth: [] }] }),
    parameters: parameters(route),
    ...(route.request?.body && {
      requestBody: { required: true, content: { 'application/json': { schema: toSchema(route.request.body) } } },
    }),
    ...(route.request?.multipart && { requestBody: multipartBody(route.request.multipart) }),
    responses,
  };
}

type Operation = ReturnType<typeof operation>;

/** Where the id of what a response created sits: `#/id`, or `#/0/id` for a list of created records. */
function createdIdPointer(response: unknown): string | undefined {
  const schema = (response as { content?: Record<string, { schema?: JsonSchema }> }).content?.['application/json']
    ?.schema as { properties?: JsonSchema; items?: { properties?: JsonSchema } } | undefined;
  if (schema?.properties?.id) return '$response.body#/id';
  if (schema?.items?.properties?.id) return '$response.body#/0/id';
  return undefined;
}

/**
 * OpenAPI links from each `POST <collection>` to the operations on `<collection>/{param}...`, filling `{param}`
 * with the created id and the other path parameters from the request, so clients (and stateful fuzzing) can
 * follow a record from its creation to its reads, changes and deletion.
 */
function addCreationLinks(paths: Record<string, Record<string, Operation>>): void {
  for (const [collection, operations] of Object.entries(paths)) {
    const create = operations.post;
    if (!create) continue;
    const [status, response] =
      Object.entries(create.responses).find(([code, candidate]) => /^2/.test(code) && createdIdPointer(candidate)) ??
      [];
    if (!status || !response) continue;
    const pointer = createdIdPointer(response)!;
    const links: Record<string, unknown> = {};
    for (const [path, targets] of Object.entries(paths)) {
      const idParam = path.startsWith(`${collection}/{`)
        ? /^\/\{(\w+)\}/.exec(path.slice(collection.length))?.[1]
        : undefined;
      if (!idParam) continue;
      for (const target of Object.values(targets)) {
        const names = target.parameters.filter((p) => p.in === 'path').map((p) => String(p.name));
        const parameters: Record<string, string> = {};
        for (const name of names) {
          if (name === idParam) parameters[name] = pointer;
          else if (collection.includes(`{${name}}`)) parameters[name] = `$request.path.${name}`;
        }
        if (Object.keys(parameters).length === names.length) {
          links[target.operationId] = { operationId: target.operationId, parameters };
        }
      }
    }
    if (Object.keys(links).length > 0) (response as { links?: unknown }).links = links;
  }
}

export function buildOpenApiDocument(
  routes: RouteDefinition[],
  info: { title: string; version: string; description: string },
) {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method] = operation(route, path);
  }
  addCreationLinks(paths);
  return {
    openapi: '3.0.3',
    info,
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: toSchema(errorSchema) },
    },
  };
}
