import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ParameterObject,
  PathItemObject,
  ReferenceObject,
  ResponsesObject,
  SchemaObject,
  SecurityRequirementObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
// class-transformer keeps its metadata storage out of its typed entry point.
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: import('class-transformer/types/MetadataStorage').MetadataStorage;
};
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { validationMetadataArrayToSchemas } from 'class-validator-jsonschema';
import { AUTH_POLICY, type AuthPolicy } from '../auth/auth.decorators';
import { API_PREFIX } from '../http/api-prefix';
import type { RecordedRoute } from '../http/route-recorder';

export interface OpenApiDocumentOptions {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
}

const ERROR_SCHEMAS: Record<string, SchemaObject> = {
  MessageError: {
    type: 'object',
    description:
      'The error shape of most failures: `message` is a string such as "404 Project Not Found", or an object of field names to lists of messages (validation).',
    properties: { message: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }] } },
    required: ['message'],
  },
  ErrorError: {
    type: 'object',
    description: 'The error shape of parameter and scope failures (`{"error":"page is invalid"}`, `{"error":"insufficient_scope",...}`) and of OAuth.',
    properties: { error: { type: 'string' }, error_description: { type: 'string' }, scope: { type: 'string' } },
    required: ['error'],
  },
};

const errorResponse = (description: string): ResponsesObject[string] => ({
  description,
  content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/MessageError' }, { $ref: '#/components/schemas/ErrorError' }] } } },
});

/** Security schemes of spec document 1 (Authentication), with this service's neutral names. */
const SECURITY_SCHEMES = {
  privateTokenHeader: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN', description: 'A personal, project, group or impersonation access token.' },
  privateTokenQuery: { type: 'apiKey', in: 'query', name: 'private_token', description: 'The same token as a query parameter.' },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token or an OAuth access token (`Authorization: Bearer`); also `access_token` in the query.',
  },
  oauth2: {
    type: 'oauth2',
    description: 'OAuth 2 resource owner password grant at `/oauth/token` (refresh tokens rotate).',
    flows: {
      password: {
        tokenUrl: '/oauth/token',
        refreshUrl: '/oauth/token',
        scopes: { api: 'full API access', read_api: 'read-only API access', read_user: 'read the users API', sudo: 'act as another user (administrators)' },
      },
    },
  },
  jobTokenHeader: { type: 'apiKey', in: 'header', name: 'JOB-TOKEN', description: 'A CI job token, on job-scoped endpoints only, while its job runs.' },
  jobTokenQuery: { type: 'apiKey', in: 'query', name: 'job_token', description: 'The job token as a query parameter.' },
  sessionCookie: { type: 'apiKey', in: 'cookie', name: '_service_session', description: 'The web session; writes also need its `X-CSRF-Token`.' },
  integrationKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'The key of an alert integration (`Authorization: Bearer <key>`, or Basic with the key as password).',
  },
} as const;

const USER_SECURITY: SecurityRequirementObject[] = [
  { privateTokenHeader: [] },
  { privateTokenQuery: [] },
  { bearer: [] },
  { oauth2: [] },
  { sessionCookie: [] },
];
const JOB_SECURITY: SecurityRequirementObject[] = [{ jobTokenHeader: [] }, { jobTokenQuery: [] }];

interface Handler {
  controller: Type<unknown>;
  method: string;
}

/** `listProjectBadges` → `List project badges`. */
export function summaryOf(methodName: string): string {
  const words = methodName
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `/api/v4/projects/:id/badges` → `/api/v4/projects/{id}/badges`; a wildcard becomes `{path}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}');
}

const PAGINATION_PARAMETERS: ParameterObject[] = [
  { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 }, description: 'Page number (offset pagination)' },
  { name: 'per_page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, description: 'Items per page' },
  {
    name: 'pagination',
    in: 'query',
    required: false,
    schema: { type: 'string', enum: ['keyset'] },
    description: 'Keyset pagination, where the list offers it: follow the `rel="next"` link',
  },
];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * The OpenAPI 3.1 description of the running application: every controller route (through
 * `@nestjs/swagger`'s explorer), with the schemas of its body and query DTOs derived from
 * their `class-validator` rules, its authentication from `@Auth` and its error responses, plus
 * every plain Fastify route recorded while the application was built (`recordRoutes`).
 */
export function buildOpenApiDocument(app: INestApplication, routes: readonly RecordedRoute[], options: OpenApiDocumentOptions): OpenAPIObject {
  const handlers = new Map<string, Handler>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown> | null;
      if (!controller) continue;
      for (const method of Object.getOwnPropertyNames(controller.prototype)) {
        if (method !== 'constructor') handlers.set(`${controller.name}.${method}`, { controller, method });
      }
    }
  }

  const base = new DocumentBuilder()
    .setTitle(options.title)
    .setDescription(options.description)
    .setVersion(options.version)
    .addServer(options.serverUrl)
    .build();
  const document = SwaggerModule.createDocument(app, base, { operationIdFactory: (controller, method) => `${controller}.${method}` });
  const schemas = validationMetadataArrayToSchemas(ownValidationMetadatas(), {
    classTransformerMetadataStorage: defaultMetadataStorage,
    refPointerPrefix: '#/components/schemas/',
  }) as Record<string, SchemaObject>;

  document.openapi = '3.1.0';
  document.components = {
    ...document.components,
    schemas: { ...(document.components?.schemas ?? {}), ...schemas, ...ERROR_SCHEMAS },
    securitySchemes: SECURITY_SCHEMES as never,
  };

  for (const [path, item] of Object.entries(document.paths)) {
    for (const verb of HTTP_METHODS) {
      const operation = item[verb];
      if (!operation) continue;
      const handler = handlers.get(operation.operationId ?? '');
      if (handler) describeControllerOperation(operation, handler, path, verb, schemas);
      completeOperation(operation, path, verb);
    }
  }

  for (const route of routes) {
    const path = openApiPath(route.url);
    for (const method of route.methods) {
      const verb = method.toLowerCase() as HttpMethod;
      if (verb === 'head' || !HTTP_METHODS.includes(verb)) continue;
      const item: PathItemObject = (document.paths[path] ??= {});
      if (item[verb]) continue;
      item[verb] = plainOperation(route, path, verb);
    }
  }
  dropDanglingRefs(document, document.components.schemas as Record<string, SchemaObject>);
  // Only the schemas an operation refers to, directly or through another schema (class-validator
  // also knows classes that are no API input, such as the environment's).
  const all = document.components.schemas ?? {};
  const refsIn = (node: unknown): string[] =>
    (JSON.stringify(node).match(/#\/components\/schemas\/[A-Za-z0-9_]+/g) ?? []).map((ref) => ref.slice('#/components/schemas/'.length));
  const kept = new Set<string>(Object.keys(ERROR_SCHEMAS));
  for (let pending = refsIn(document.paths); pending.length > 0;) {
    const name = pending.pop() as string;
    if (kept.has(name) || !all[name]) continue;
    kept.add(name);
    pending.push(...refsIn(all[name]));
  }
  document.components.schemas = Object.fromEntries(Object.entries(all).filter(([name]) => kept.has(name)));
  document.paths = Object.fromEntries(Object.entries(document.paths).sort(([a], [b]) => a.localeCompare(b)));
  return document;
}

function describeControllerOperation(
  operation: OperationObject,
  handler: Handler,
  path: string,
  verb: HttpMethod,
  schemas: Record<string, SchemaObject>,
): void {
  const { controller, method } = handler;
  operation.summary ??= summaryOf(method);
  operation.tags = [controller.name.replace(/Controller$/, '')];

  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { index: number; data?: unknown }>;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, method) ?? []) as unknown[];
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  for (const [key, arg] of Object.entries(args)) {
    const kind = Number(key.split(':')[0]);
    const type = types[arg.index];
    const dto = typeof type === 'function' ? dtoSchema(type as Type<unknown>, schemas) : undefined;
    if (kind === RouteParamtypes.BODY && arg.data === undefined) {
      const schema: SchemaObject | ReferenceObject = dto
        ? { $ref: `#/components/schemas/${(type as Type<unknown>).name}` }
        : { type: 'object', description: 'Parameters as a JSON object, a form or a query string' };
      operation.requestBody = {
        required: verb !== 'put' && verb !== 'patch',
        content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
      };
    } else if (kind === RouteParamtypes.QUERY && arg.data === undefined && dto) {
      const required = new Set(dto.required ?? []);
      for (const [name, schema] of Object.entries(dto.properties ?? {})) {
        if (parameters.some((p) => p.name === name && p.in === 'query')) continue;
        parameters.push({ name, in: 'query', required: required.has(name), schema: schema as SchemaObject });
      }
    }
  }
  // A list answers pages: its handler takes the reply to set the pagination headers (document 1, Pagination).
  const takesReply = Object.keys(args).some((key) => Number(key.split(':')[0]) === RouteParamtypes.RESPONSE);
  if (verb === 'get' && takesReply && path.startsWith(`${API_PREFIX}/`) && !path.endsWith('}')) {
    for (const parameter of PAGINATION_PARAMETERS) if (!parameters.some((p) => p.name === parameter.name)) parameters.push(parameter);
  }
  // The explorer lists a whole-object @Query()/@Body() DTO as a parameter of its own: drop those.
  operation.parameters = parameters.filter((p) => !(p.in === 'query' && p.name && /^[A-Z]/.test(p.name)));

  const policy = authPolicyOf(controller, method);
  const notes: string[] = [];
  if (policy.skip) {
    operation.security = [];
  } else {
    operation.security = [...(policy.optional ? [{}] : []), ...USER_SECURITY, ...(policy.jobToken ? JOB_SECURITY : [])];
    if (policy.optional) notes.push('Anonymous callers are answered with public data only.');
    if (policy.admin) notes.push('Administrators only.');
    if (policy.project) notes.push(`Needs access level ${policy.project.minAccessLevel} or more on the project \`${policy.project.param}\`.`);
    if (policy.group) notes.push(`Needs access level ${policy.group.minAccessLevel} or more on the group \`${policy.group.param}\`.`);
    if (policy.scopes) notes.push(`Scopes: ${policy.scopes.join(', ')}.`);
  }
  if (policy.tier) notes.push(`Tier: ${policy.tier.toUpperCase()} or higher (403 below).`);
  if (notes.length > 0) operation.description = [operation.description, ...notes].filter(Boolean).join('\n\n');
}

/**
 * The schema of a DTO class with the rules of its ancestors (class-validator-jsonschema gives
 * each class its own decorators only); registered under the class name for `$ref`s.
 */
function dtoSchema(type: Type<unknown>, schemas: Record<string, SchemaObject>): SchemaObject | undefined {
  const chain: SchemaObject[] = [];
  for (let current: unknown = type; typeof current === 'function' && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    const own = schemas[(current as Type<unknown>).name];
    if (own) chain.unshift(own);
  }
  if (chain.length === 0) return undefined;
  const merged: SchemaObject = {
    type: 'object',
    properties: Object.assign({}, ...chain.map((schema) => schema.properties ?? {})),
  };
  const required = [...new Set(chain.flatMap((schema) => schema.required ?? []))];
  if (required.length > 0) merged.required = required;
  schemas[type.name] = merged;
  return merged;
}

function authPolicyOf(controller: Type<unknown>, method: string): AuthPolicy {
  const onClass = (Reflect.getMetadata(AUTH_POLICY, controller) ?? {}) as AuthPolicy;
  const onMethod = (Reflect.getMetadata(AUTH_POLICY, (controller.prototype as Record<string, object>)[method]) ?? {}) as AuthPolicy;
  return { ...onClass, ...onMethod };
}

/** Path parameters the explorer did not declare, and the error responses every route can give. */
function completeOperation(operation: OperationObject, path: string, verb: HttpMethod): void {
  operation.summary ??= `${verb.toUpperCase()} ${path}`;
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    const existing = parameters.find((p) => p.in === 'path' && p.name === name);
    if (existing) existing.required = true;
    else parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  operation.parameters = parameters;
  const responses = (operation.responses ??= {});
  for (const response of Object.values(responses)) if (response && 'description' in response && !response.description) response.description = 'Success';
  if (Object.keys(responses).every((status) => !status.startsWith('2'))) {
    responses[verb === 'post' ? '201' : verb === 'delete' ? '204' : '200'] = { description: 'Success' };
  }
  responses['400'] ??= errorResponse('Invalid parameters or body (validation shape, or `{"error": ...}` for parameters)');
  if ((operation.security ?? []).length > 0) {
    responses['401'] ??= errorResponse('Missing, unknown, expired or revoked credentials');
    responses['403'] ??= errorResponse('Not allowed (access level, scope, tier, archived project)');
  }
  responses['404'] ??= errorResponse('Not found, or not visible to the caller');
  if (verb === 'delete') responses['412'] ??= errorResponse('`If-Unmodified-Since` is older than the last change of the resource');
  responses['429'] ??= errorResponse('Rate limited (`Retry-After` tells when to retry)');
}

function plainOperation(route: RecordedRoute, path: string, verb: HttpMethod): OperationObject {
  const doc = route.doc;
  const operation: OperationObject = {
    operationId: `${verb}:${route.url}`,
    summary: doc?.summary ?? `${verb.toUpperCase()} ${route.url}`,
    description: doc?.description,
    tags: [doc?.tag ?? 'Other'],
    security: doc?.security ?? [],
    parameters: [],
    responses: {},
  };
  if (doc?.jsonBody) {
    operation.requestBody = { required: true, content: { 'application/json': { schema: { type: 'object' } } } };
  }
  const success = doc?.success ?? { status: 200, mediaType: 'application/json' };
  operation.responses[String(success.status)] = { description: 'Success', content: { [success.mediaType]: { schema: {} } } };
  completeOperation(operation, path, verb);
  return operation;
}

/** A `$ref` to a type that has no schema (`@Body() body: unknown` is `Object`) becomes "any value". */
function dropDanglingRefs(node: unknown, schemas: Record<string, SchemaObject>): void {
  if (Array.isArray(node)) {
    for (const item of node) dropDanglingRefs(item, schemas);
  } else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      const ref = (value as { $ref?: unknown } | null)?.$ref;
      if (typeof ref === 'string' && ref.startsWith('#/components/schemas/') && !schemas[ref.slice('#/components/schemas/'.length)]) {
        record[key] = {};
      } else {
        dropDanglingRefs(value, schemas);
      }
    }
  }
}

/**
 * The validation metadata of the DTO classes of this realm, with custom constraints named as
 * class-validator-jsonschema expects. class-validator keeps one storage per process (a global):
 * where the same files were also loaded in another JavaScript realm of the process (a test
 * runner's setup), their classes are registered twice, and a schema built from the foreign copy
 * would lose its inherited properties (`instanceof` fails across realms).
 */
function ownValidationMetadatas(): ValidationMetadata[] {
  const storage = getMetadataStorage() as unknown as {
    validationMetadatas: Map<unknown, ValidationMetadata[]>;
    getTargetValidatorConstraints(target: Function): Array<{ name: string }>;
  };
  const metadatas: ValidationMetadata[] = [];
  for (const [target, list] of storage.validationMetadatas) {
    if (!(target instanceof Function)) continue;
    for (const meta of list) {
      const constraint = meta.constraintCls ? storage.getTargetValidatorConstraints(meta.constraintCls)[0] : undefined;
      metadatas.push(constraint ? { ...meta, type: constraint.name } : { ...meta });
    }
  }
  return metadatas;
}
