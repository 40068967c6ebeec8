import { getOperationAST, parse, type GraphQLSchema } from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../src/core/page-size.js';
import type { RouteDefinition, RouteMount } from '../route.js';
import { sharedComponents } from './components.js';
import { JsonSchemaBuilder, type JsonSchema } from './json-schema.js';
import { routeOperation } from './operation.js';

export interface OpenApiOptions {
  /** Origin of the OAuth endpoints named in the security scheme. */
  publicUrl: string;
  /** The route tables described, with where each is served. */
  mounts: readonly RouteMount[];
}

/** SPEC 9: version 1, in beta. */
export const API_VERSION = '1.0.0-beta';

/** The origin the checked-in document names (the default of `npm start`). */
export const DEFAULT_PUBLIC_URL = 'http://localhost:4000';

const DESCRIPTION = `The REST API of the MSP administration platform (SPEC 4). Every answer is JSON in the envelope of SPEC 2.1:
\`{success: true, data, meta?}\` or \`{success: false, error: {code, message, details}}\`. Lists take \`page\` (from 1) and
\`limit\` (1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}) and answer \`meta {page, limit, total}\`. Every answer carries X-RateLimit-Limit,
X-RateLimit-Remaining and X-RateLimit-Reset (the Unix time in seconds when the window resets); a 429 adds
Retry-After (seconds to wait).

Feature endpoints (/api/...) are also served under /v1/api/... Tenant-scoped feature endpoints take the tenant in the
header X-Tenant-Id (or the query parameter tenantId).

This document is generated from the REST route table and the GraphQL schema (docs/openapi.md); the test suite
validates every REST answer it receives against it. GraphQL: POST /graphql.`;

/** `ListUsers` → `listUsers`. */
const lowerFirst = (name: string): string => name[0].toLowerCase() + name.slice(1);

/** Unique operation ids: the GraphQL operation's name, and for a second route running the same operation, its path too. */
function operationIdOf(route: RouteDefinition, taken: Set<string>): string {
  const name = getOperationAST(parse(route.operation))?.name?.value;
  const fromPath = route.path
    .split(/[/-]/)
    .filter((part) => part !== '' && !part.startsWith(':'))
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
  let id = name ? lowerFirst(name) : lowerFirst(route.method.toLowerCase() + fromPath);
  if (taken.has(id)) id = `${id}Via${fromPath}`;
  for (let n = 2; taken.has(id); n++) id = `${id}${n}`;
  taken.add(id);
  return id;
}

/** Builds the OpenAPI 3.1 document of every REST route. Deterministic: the same code gives the same bytes. */
export function buildOpenApiDocument(schema: GraphQLSchema, options: OpenApiOptions): JsonSchema {
  const schemas = new JsonSchemaBuilder();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const taken = new Set<string>();
  for (const { mount, routes } of options.mounts) {
    for (const route of routes) {
      const built = routeOperation(route, mount, schema, schemas, operationIdOf(route, taken));
      paths[built.path] ??= {};
      if (paths[built.path][built.method])
        throw new Error(`OpenAPI: ${built.method} ${built.path} is in the table twice`);
      paths[built.path][built.method] = built.operation;
    }
  }
  const shared = sharedComponents(options.publicUrl);
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const sortedSchemas = Object.fromEntries(
    Object.entries({ ...shared.schemas, ...schemas.components }).sort(([a], [b]) => a.localeCompare(b)),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'MSP administration platform API',
      version: API_VERSION,
      description: DESCRIPTION,
      license: {
        name: 'Proprietary: all rights reserved (docs/licenses.md)',
        identifier: 'LicenseRef-Proprietary',
      },
    },
    servers: [{ url: '/', description: 'This server' }],
    security: [{ ApiKey: [] }, { OAuth2: [] }],
    paths: sortedPaths,
    components: { ...shared, schemas: sortedSchemas },
  };
}
