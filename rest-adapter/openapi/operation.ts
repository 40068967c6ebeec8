import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../src/core/page-size.js';
import {
  GraphQLList,
  GraphQLNonNull,
  Kind,
  getNullableType,
  getOperationAST,
  parse,
  typeFromAST,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { HTTP_STATUS_BY_CODE, type ErrorCode } from '../../src/core/errors.js';
import { Permission, type Requirement } from '../../src/core/permissions.js';
import { operationRequirements } from '../../src/http/operation-requirements.js';
import { withEstimatedTotals } from '../compile.js';
import { TENANT_HEADER, TENANT_QUERY_PARAM, type QueryParamMapping, type RouteDefinition } from '../route.js';
import {
  API_KEY_SCHEME,
  OAUTH_SCHEME,
  PARSER_REFUSAL,
  PARSER_REFUSAL_STATUSES,
  errorResponseName,
  responseHeaders,
} from './components.js';
import type { JsonSchema, JsonSchemaBuilder } from './json-schema.js';
import { successSchema } from './success-schema.js';

interface Variable {
  type: GraphQLInputType;
  required: boolean;
}

/** `/tenants/:id/users` → `/tenants/{id}/users`. */
export const openApiPath = (expressPath: string): string => expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The API key level and OAuth scope a requirement asks for (core/viewer.ts decides the same way). */
function keyLevel(requirement: Requirement): 'Read' | 'Write' | 'Admin' {
  if (requirement.destructive || requirement.permission === Permission.ADMIN) return 'Admin';
  return requirement.permission.startsWith('write:') ? 'Write' : 'Read';
}

function securityOf(requirements: readonly Requirement[]): { security: JsonSchema[]; text: string } {
  const scopes = [...new Set(requirements.map((r) => r.permission))];
  const levels = ['Read', 'Write', 'Admin'];
  const level = requirements.map(keyLevel).sort((a, b) => levels.indexOf(b) - levels.indexOf(a))[0] ?? 'Read';
  const live = requirements.some((r) => r.liveOnly) ? ' Live credentials only (not svc_sk_test_ keys).' : '';
  const text = `Needs an API key of level ${level} or an access token with the scope ${scopes.join(', ') || '(any)'}.${live}`;
  return { security: [{ [API_KEY_SCHEME]: [] }, { [OAUTH_SCHEME]: scopes }], text };
}

/** The error codes a route can answer (each listed status is one the adapter or the services produce). */
function errorCodesOf(route: RouteDefinition, takesInput: boolean): ErrorCode[] {
  const codes: ErrorCode[] = ['INVALID_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN'];
  // The cloud's NotFound and Refused answer 404 and 409 on any route that reaches it (core/errors.ts).
  if (takesInput || route.reachesCloud) codes.push('NOT_FOUND');
  if (route.method !== 'GET' || route.conflictOnRead || route.reachesCloud) codes.push('CONFLICT');
  // Optimistic concurrency: a route that reads If-Match answers 412 to a stale version.
  if (Object.keys(route.headers ?? {}).some((header) => header.toLowerCase() === 'if-match'))
    codes.push('PRECONDITION_FAILED');
  codes.push('RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE');
  if (route.reachesCloud) codes.push('NOT_SUPPORTED');
  return codes;
}

/** A query parameter's schema: its variable's type, read as the adapter converts the text (handler.ts). */
function queryParamSchema(
  mapping: QueryParamMapping,
  variable: Variable,
  schemas: JsonSchemaBuilder,
): JsonSchema {
  const nullable = getNullableType(variable.type);
  if (mapping.type === 'stringList') {
    const item = nullable instanceof GraphQLList ? nullable.ofType : nullable;
    return { type: 'array', items: schemas.input(new GraphQLNonNull(getNullableType(item))) };
  }
  return schemas.input(new GraphQLNonNull(nullable));
}

export interface RouteOperation {
  path: string;
  method: Lowercase<RouteDefinition['method']>;
  operation: JsonSchema;
}

/**
 * One route of the table as an OpenAPI operation: its parameters and body from the document's variables and
 * how the route maps them, its success body from the root field's selection set inside the SPEC envelope, and
 * its errors from what the adapter and the services can answer.
 */
export function routeOperation(
  route: RouteDefinition,
  mount: string,
  schema: GraphQLSchema,
  schemas: JsonSchemaBuilder,
  operationId: string,
): RouteOperation {
  const where = `${route.method} ${route.path}`;
  // The document exactly as the adapter runs it (compile.ts adds `totalEstimated` beside every `total`).
  const document = withEstimatedTotals(parse(route.operation));
  const operation = getOperationAST(document);
  if (!operation) throw new Error(`OpenAPI: ${where} has no single operation`);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);

  const variables = new Map<string, Variable>();
  for (const node of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, node.type) as GraphQLInputType | undefined;
    if (!type) throw new Error(`OpenAPI: ${where}: unknown type of $${node.variable.name.value}`);
    variables.set(node.variable.name.value, {
      type,
      required: type instanceof GraphQLNonNull && !node.defaultValue,
    });
  }
  const variable = (name: string): Variable => {
    const found = variables.get(name);
    if (!found) throw new Error(`OpenAPI: ${where} maps $${name}, which its document does not declare`);
    return found;
  };

  const parameters: JsonSchema[] = [];
  const mapped = new Set<string>();
  for (const [param, name] of Object.entries(route.params ?? {})) {
    mapped.add(name);
    parameters.push({
      name: param,
      in: 'path',
      required: true,
      schema: schemas.input(new GraphQLNonNull(getNullableType(variable(name).type))),
    });
  }
  const fromQuery = new Set<string>();
  for (const [param, mapping] of Object.entries(route.query ?? {})) {
    const name = mapping.variable ?? param;
    fromQuery.add(name);
    const parameter: JsonSchema = {
      name: param,
      in: 'query',
      schema: queryParamSchema(mapping, variable(name), schemas),
    };
    // A variable the body may also give (body: 'spread') is not required of the query string.
    if (variable(name).required && route.body !== 'spread') parameter.required = true;
    // Paging bounds are class-validator rules the GraphQL types cannot carry: stated here, one place for all lists.
    if (param === 'limit' && mapping.type === 'int')
      Object.assign(parameter, {
        description: `Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`,
        schema: {
          ...(parameter.schema as object),
          minimum: 1,
          maximum: MAX_PAGE_SIZE,
          default: DEFAULT_PAGE_SIZE,
        },
      });
    if (param === 'page' && mapping.type === 'int')
      Object.assign(parameter, {
        description: 'Page number, from 1 (default 1)',
        schema: { ...(parameter.schema as object), minimum: 1, default: 1 },
      });
    if (mapping.type === 'dateTime' || mapping.type === 'dateTimeUntil') {
      // handler.ts reads a date alone as its UTC day; the document says which instant it stands for.
      parameter.schema = {
        anyOf: [
          { type: 'string', format: 'date-time' },
          { type: 'string', format: 'date' },
        ],
      };
      parameter.description =
        mapping.type === 'dateTime'
          ? 'A date-time, or a date (YYYY-MM-DD) meaning the start of that UTC day'
          : 'A date-time, or a date (YYYY-MM-DD) meaning up to the end of that UTC day (the whole day included)';
    }
    if (mapping.type === 'stringList') {
      parameter.style = 'form';
      parameter.explode = true;
      parameter.description = 'Several values: repeat the parameter or separate the values with commas';
    }
    parameters.push(parameter);
  }
  if (route.tenant) {
    mapped.add(route.tenant);
    const uuid = { type: 'string', format: 'uuid' };
    parameters.push(
      {
        name: TENANT_HEADER,
        in: 'header',
        schema: uuid,
        description: `The tenant to act in (required: this header or the query parameter ${TENANT_QUERY_PARAM})`,
      },
      {
        name: TENANT_QUERY_PARAM,
        in: 'query',
        schema: uuid,
        description: `The tenant to act in, when the header ${TENANT_HEADER} is not sent`,
      },
    );
  }
  for (const [header, mapping] of Object.entries(route.headers ?? {})) {
    mapped.add(mapping.variable);
    const headerSchema = schemas.input(new GraphQLNonNull(getNullableType(variable(mapping.variable).type)));
    parameters.push({ name: header, in: 'header', schema: headerSchema });
    if (mapping.queryAlias)
      parameters.push({
        name: mapping.queryAlias,
        in: 'query',
        schema: headerSchema,
        description: `Same as the header ${header}`,
      });
  }

  const result: JsonSchema = {
    operationId,
    summary: route.summary,
    tags: [tagOf(route.path)],
    'x-graphql-operation': operation.name?.value,
  };
  if (parameters.length > 0) result.parameters = parameters;
  const requestBody = requestBodyOf(route, variables, mapped, fromQuery, schemas);
  if (requestBody) result.requestBody = requestBody;

  const { security, text } = securityOf(operationRequirements(schema, operation, fragments));
  result.description =
    `${route.summary}.\n\n${text}` + (mount === '/api' ? ' Also served under /v1/api.' : '');
  result.security = security;

  const responses: Record<string, JsonSchema> = {
    [String(route.status ?? 200)]: {
      description: route.summary,
      headers: responseHeaders(false, true),
      content: {
        'application/json': {
          schema: successSchema(
            route,
            operation.operation,
            operation.selectionSet.selections[0] as FieldNode,
            schema,
            schemas,
            fragments,
          ),
        },
      },
    },
  };
  const takesInput =
    route.params !== undefined ||
    route.tenant !== undefined ||
    route.body !== undefined ||
    route.csvBody !== undefined ||
    Object.keys(route.query ?? {}).some((name) => !['page', 'limit'].includes(name));
  for (const code of errorCodesOf(route, takesInput))
    responses[String(HTTP_STATUS_BY_CODE[code])] = {
      $ref: `#/components/responses/${errorResponseName(code)}`,
    };
  for (const status of PARSER_REFUSAL_STATUSES)
    responses[status] = { $ref: `#/components/responses/${PARSER_REFUSAL}` };
  result.responses = responses;
  return {
    path: mount + openApiPath(route.path),
    method: route.method.toLowerCase() as RouteOperation['method'],
    operation: result,
  };
}

/** `/tenants/:id/users` → `users`; `/security/alerts/:id` → `security`. */
function tagOf(path: string): string {
  const segments = path.split('/').filter((s) => s !== '' && !s.startsWith(':'));
  return segments[0] === 'tenants' && segments.length > 1 ? segments[1] : segments[0];
}

function requestBodyOf(
  route: RouteDefinition,
  variables: Map<string, Variable>,
  mapped: ReadonlySet<string>,
  fromQuery: ReadonlySet<string>,
  schemas: JsonSchemaBuilder,
): JsonSchema | undefined {
  const content: Record<string, JsonSchema> = {};
  let required = false;
  if (route.body === 'spread') {
    const properties: Record<string, JsonSchema> = {};
    const requiredFields: string[] = [];
    for (const [name, { type, required: needed }] of variables) {
      if (mapped.has(name) || name === route.csvBody) continue;
      properties[name] = schemas.input(type);
      if (needed && !fromQuery.has(name)) requiredFields.push(name);
    }
    const body: JsonSchema = { type: 'object', properties, additionalProperties: false };
    if (requiredFields.length > 0) {
      body.required = requiredFields;
      required = true;
    }
    content['application/json'] = { schema: body };
  } else if (route.body) {
    const target = variables.get(route.body)!;
    content['application/json'] = { schema: schemas.input(new GraphQLNonNull(getNullableType(target.type))) };
    required = target.required;
  }
  if (route.csvBody)
    content['text/csv'] = {
      schema: { type: 'string', description: 'The CSV file, UTF-8, header row first' },
    };
  return Object.keys(content).length > 0 ? { required, content } : undefined;
}
