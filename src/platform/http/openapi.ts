import Joi from 'joi';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_PREFIX } from '../errors';
import { openApiComponent } from './components';
import { declaresIdempotencyKey } from './idempotency-key';
import { createSchemaConverter, type JsonSchema, type SchemaConverter } from './json-schema';
import { auditOf, operationIdOf, type MultipartSpec, type RouteDefinition } from './route';

/** The body of every refusal (`errors.ts` builds it): RFC 9457 problem details plus the spec's `error`. */
const problemSchema = Joi.object({
  type: Joi.string()
    .meta({ format: 'uri-reference' })
    .description(`\`${PROBLEM_TYPE_PREFIX}<code>\`: the problem type, a reference inside this API (RFC 9457)`),
  title: Joi.string().description('Short summary of the problem type, the same for every occurrence'),
  status: Joi.number().integer().min(400).max(599).description('The HTTP status code'),
  detail: Joi.string().description('What went wrong this time, for people'),
  code: Joi.string().description('Stable machine-readable code, e.g. `validation_failed`, `room_taken`, `internal`'),
  error: Joi.string().description('The same text as `detail`: the field the interface spec names'),
  details: Joi.array()
    .items(Joi.object({ path: Joi.string(), message: Joi.string() }))
    .optional()
    .description('400 validation failures: every invalid field (`body.name`, `query.from`...)'),
  errors: Joi.array()
    .items(Joi.string())
    .optional()
    .description('422 refused business rules: every rule that failed (may be empty)'),
})
  .unknown(true)
  .description(
    `Served as \`${PROBLEM_CONTENT_TYPE}\`. Clients branch on \`code\` (or \`type\`); \`detail\` and \`error\` are for people. A problem type may add members; clients ignore those they do not know.`,
  )
  .meta(openApiComponent('Problem'));

const HEADER_COMPONENTS = {
  RateLimit: {
    description:
      'What is left of each quota for this client (draft-ietf-httpapi-ratelimit-headers), e.g. ' +
      '`"per-address";r=97;t=840, "per-account";r=7;t=840`: `r` attempts left, `t` seconds until the window restarts.',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description:
      'The quotas of this route, e.g. `"per-address";q=100;w=900, "per-account";q=10;w=900`: `q` attempts per ' +
      '`w` seconds, per client address, and per client address and account (the e-mail in the body).',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } },
};

const headerRef = (name: keyof typeof HEADER_COMPONENTS) => ({ $ref: `#/components/headers/${name}` });

const problemContent = { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } };

function errorResponse(description: string, headers?: Record<string, unknown>) {
  return { description, ...(headers && { headers }), content: problemContent };
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
  if (acceptsIfMatch(route)) {
    errors[412] = errorResponse('`If-Match` names a version the record no longer has: nothing was changed.');
  }
  if (declaresIdempotencyKey(request.headers)) {
    errors[409] = errorResponse('A request with this `Idempotency-Key` is still being answered: send it again later.');
    errors[422] = errorResponse('This `Idempotency-Key` was used with another body (code `idempotency_mismatch`).');
  }
  if (route.rateLimit) {
    errors[429] = errorResponse('Too many attempts; see the Retry-After header.', {
      'Retry-After': headerRef('Retry-After'),
    });
  }
  // Any route may find the database or its hotel's share of the server busy (errors.ts ServiceUnavailableError).
  errors[503] = errorResponse('Busy for now; nothing was done: send the same request again after Retry-After.', {
    'Retry-After': headerRef('Retry-After'),
  });
  return errors;
}

function describeAccess(route: RouteDefinition): string {
  const access = route.access;
  if (access.kind === 'public') return 'Access: public.';
  if (access.kind === 'authenticated') return 'Access: any signed-in user.';
  return `Access: staff of the hotel with role ${access.roles.join(', ')} (and super_admin).`;
}

/** A creating route's retries: kept by its `Idempotency-Key` header, or why it takes none. */
function describeIdempotency(route: RouteDefinition): string | undefined {
  if (typeof route.idempotency === 'object') return `No \`Idempotency-Key\`: ${route.idempotency.none}.`;
  if (!declaresIdempotencyKey(route.request?.headers)) return undefined;
  return (
    'Safe to retry with `Idempotency-Key` (kept a day per hotel and operation): the same key with the same ' +
    'parameters and body answers the first answer again (status and body) without doing it twice.'
  );
}

/** The writes of a route with `concurrency` read `If-Match` (mount.ts, concurrency.ts). */
function acceptsIfMatch(route: RouteDefinition): boolean {
  return route.concurrency === 'if-match' && route.method !== 'get';
}

const IF_MATCH_PARAMETER = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'The `ETag` of the record as you last read it: the change applies only if the record is still that version ' +
    '(else 412, nothing changed); `*` any version. Without it the change applies whatever the version.',
  schema: { type: 'string', maxLength: 1000 },
};

const ETAG_HEADER = {
  description: 'The version of the record in this answer: send it as `If-Match` to change that version only',
  schema: { type: 'string' },
};

function parameters(route: RouteDefinition, converter: SchemaConverter) {
  const list: JsonSchema[] = acceptsIfMatch(route) ? [IF_MATCH_PARAMETER] : [];
  const declared = { path: route.request?.params, query: route.request?.query, header: route.request?.headers };
  for (const location of ['path', 'query', 'header'] as const) {
    const joiSchema = declared[location];
    if (!joiSchema) continue;
    const schema = converter.toSchema(joiSchema) as { properties?: Record<string, JsonSchema>; required?: string[] };
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

function operation(route: RouteDefinition, converter: SchemaConverter) {
  const responses: Record<string, JsonSchema & { headers?: Record<string, unknown> }> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    // Every refusal answers the platform's problem body (errors.ts); a success answers its own schema, if any.
    const content =
      Number(status) >= 400
        ? problemContent
        : response.media
          ? {
              ...(response.schema && {
                'application/json': { schema: converter.toSchema(response.schema, { answer: true }) },
              }),
              ...Object.fromEntries(
                response.media.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
              ),
            }
          : response.schema && {
              'application/json': { schema: converter.toSchema(response.schema, { answer: true }) },
            };
    const headers =
      response.headers &&
      Object.fromEntries(
        Object.entries(response.headers).map(([name, description]) => [
          name,
          { description, schema: { type: 'string' } },
        ]),
      );
    // A record's answer carries its version; a deletion's answers no record.
    const versioned = route.concurrency && route.method !== 'delete' && Number(status) < 300 && response.schema;
    const allHeaders = versioned ? { ETag: ETAG_HEADER, ...headers } : headers;
    responses[status] = {
      description: response.description,
      ...(allHeaders && { headers: allHeaders }),
      ...(content && { content }),
    };
  }
  for (const [status, response] of Object.entries(platformErrors(route))) responses[status] ??= response;
  if (route.rateLimit) {
    // mount.ts sets them on every answer of the route, refusals included.
    for (const response of Object.values(responses)) {
      response.headers = {
        RateLimit: headerRef('RateLimit'),
        'RateLimit-Policy': headerRef('RateLimit-Policy'),
        ...response.headers,
      };
    }
  }
  return {
    operationId: operationIdOf(route),
    summary: route.summary,
    description: [route.description, describeAccess(route), describeIdempotency(route)].filter(Boolean).join('\n\n'),
    tags: route.tags,
    'x-access': route.access,
    ...(route.method !== 'get' && { 'x-audit': auditOf(route) }),
    security: route.access.kind === 'public' ? [] : [{ bearerAuth: [] }],
    parameters: parameters(route, converter),
    ...(route.request?.body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: converter.toSchema(route.request.body) } },
      },
    }),
    ...(route.request?.multipart && { requestBody: multipartBody(route.request.multipart) }),
    responses,
  };
}

type Operation = ReturnType<typeof operation>;

type Components = Record<string, JsonSchema>;

/** The schema itself, or the component a `$ref` names. */
function resolved(schema: JsonSchema | undefined, components: Components): JsonSchema | undefined {
  const name = typeof schema?.$ref === 'string' ? schema.$ref.split('/').pop()! : undefined;
  return name ? components[name] : schema;
}

/** Where the id of what a response created sits: `#/id`, or `#/0/id` for a list of created records. */
function createdIdPointer(response: unknown, components: Components): string | undefined {
  const content = (response as { content?: Record<string, { schema?: JsonSchema }> }).content;
  const schema = resolved(content?.['application/json']?.schema, components) as
    { properties?: JsonSchema; items?: JsonSchema } | undefined;
  if (schema?.properties?.id) return '$response.body#/id';
  if ((resolved(schema?.items, components) as { properties?: JsonSchema } | undefined)?.properties?.id) {
    return '$response.body#/0/id';
  }
  return undefined;
}

/**
 * OpenAPI links from each `POST <collection>` to the operations on `<collection>/{param}...`, filling `{param}`
 * with the created id and the other path parameters from the request, so clients (and stateful fuzzing) can
 * follow a record from its creation to its reads, changes and deletion.
 */
function addCreationLinks(paths: Record<string, Record<string, Operation>>, components: Components): void {
  for (const [collection, operations] of Object.entries(paths)) {
    const create = operations.post;
    if (!create) continue;
    const [status, response] =
      Object.entries(create.responses).find(
        ([code, candidate]) => /^2/.test(code) && createdIdPointer(candidate, components),
      ) ?? [];
    if (!status || !response) continue;
    const pointer = createdIdPointer(response, components)!;
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

/** The OpenAPI 3.0 document of `routes`, served by the API at `serverUrl`. */
export function buildOpenApiDocument(
  routes: RouteDefinition[],
  info: { title: string; version: string; description: string; license?: { name: string } },
  serverUrl: string,
) {
  const converter = createSchemaConverter();
  converter.toSchema(problemSchema, { answer: true });
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method] = operation(route, converter);
  }
  const schemas = converter.components();
  addCreationLinks(paths, schemas);
  return {
    openapi: '3.0.3',
    info,
    servers: [{ url: serverUrl.replace(/\/+$/, ''), description: 'This API' }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      headers: HEADER_COMPONENTS,
      schemas,
    },
  };
}
