import Joi from 'joi';
import joiToJson from 'joi-to-json';
import type { MultipartSpec, RouteDefinition } from './route';

type JsonSchema = Record<string, unknown>;

const errorSchema = Joi.object({
  error: Joi.string().required(),
  details: Joi.array().items(Joi.object({ path: Joi.string(), message: Joi.string() })),
  errors: Joi.array().items(Joi.string()),
});

function toSchema(schema: Joi.Schema): JsonSchema {
  return joiToJson(schema, 'open-api') as JsonSchema;
}

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
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

function operation(route: RouteDefinition) {
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.headers && {
        headers: Object.fromEntries(
          Object.entries(response.headers).map(([name, description]) => [
            name,
            { description, schema: { type: 'string' } },
          ]),
        ),
      }),
      ...(response.schema && { content: { 'application/json': { schema: toSchema(response.schema) } } }),
    };
  }
  if (route.request) responses['400'] ??= errorResponse('Validation failed; `details` lists every problem.');
  if (route.access.kind !== 'public') responses['401'] ??= errorResponse('Missing, invalid or expired access token.');
  if (route.access.kind === 'hotel') responses['403'] ??= errorResponse('Another hotel, or a role without access.');
  if (route.rateLimit) responses['429'] ??= errorResponse('Too many attempts; see the Retry-After header.');
  return {
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

export function buildOpenApiDocument(
  routes: RouteDefinition[],
  info: { title: string; version: string; description: string },
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method] = operation(route);
  }
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
