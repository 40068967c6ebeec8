/**
 * Operations of server-side.ts (its SERVER_SIDE spreads them) for files about the schema and the route table:
 * what needs the app's built schema (its fields' requirement and cost extensions) or its route list, answered
 * by the server from the schema it serves, so that such a file does not evaluate the app's modules
 * (`src/schema.js`, `src/features.js`: about 0.75 s of CPU a file) to build its own. What they return is plain
 * data (names, messages, numbers); the types of the schema a file may read from the committed SDL instead
 * (committed-schema.ts).
 */
import { getOperationAST, parse, type OperationDefinitionNode } from 'graphql';
import { compileRoute } from '../../rest-adapter/compile.js';
import type { RouteDefinition } from '../../rest-adapter/route.js';
import { restSchemaOf } from '../../rest-adapter/rest-schema.js';
import { ARGUMENT_REQUIREMENTS_EXTENSION, REQUIREMENT_EXTENSION } from '../../src/core/authorize.js';
import { FEATURES, type Requirement } from '../../src/core/permissions.js';
import { FEATURE_ROUTES, VERSIONED_ROUTES } from '../../src/features.js';
import { operationRequirements as requirementsOf } from '../../src/http/operation-requirements.js';
import { queryCost as costOf, QUERY_LIMITS, ratePointsOf } from '../../src/http/query-limits.js';
import { sharedSchema } from './test-app.js';

/** One requirement of a root field, and its row of the permission table (`users.write`) when it is one. */
export interface TableRequirement {
  requires: Requirement;
  /** `<feature>.<action>` of FEATURES when `requires` is that row itself (the same object), else null. */
  row: string | null;
}

export interface RootFieldRequirements {
  type: 'Query' | 'Mutation';
  field: string;
  /** The field's own requirement (`@RequirePermission`), or null when it declares none. */
  requirement: TableRequirement | null;
  /** The stricter requirements of its arguments (`input.deleteUser`), in the schema's order. */
  stricter: Array<TableRequirement & { argument: string }>;
}

/** A compiled route as plain data: its definition and its variables' types and sources (compile.ts). */
export interface CompiledRouteData {
  /** Where the route is mounted: '/v1' or '/api'. */
  prefix: '/v1' | '/api';
  definition: RouteDefinition;
  /** Each variable of the route's document and its type as GraphQL prints it (`UUID!`, `[String!]`). */
  variables: Array<{ name: string; type: string }>;
  /** Where each mapped variable comes from (path, query, body, header, tenant). */
  sources: Array<{ variable: string; from: string }>;
}

/** The row of FEATURES a requirement object is, by identity (the table's rows are the objects resolvers use). */
function tableRowOf(requirement: unknown): string | null {
  for (const [feature, actions] of Object.entries(FEATURES))
    for (const [action, row] of Object.entries(actions))
      if (row === requirement) return `${feature}.${action}`;
  return null;
}

let requirements: Promise<RootFieldRequirements[]> | undefined;
/** Every query and mutation's requirements, as the server's schema records them (core/authorize.ts); once. */
function rootFieldRequirements(): Promise<RootFieldRequirements[]> {
  requirements ??= readRequirements();
  return requirements;
}

async function readRequirements(): Promise<RootFieldRequirements[]> {
  const schema = await sharedSchema();
  const roots = [schema.getQueryType(), schema.getMutationType()];
  return roots.flatMap((root) =>
    Object.values(root?.getFields() ?? {}).map((field) => {
      const requirement = field.extensions[REQUIREMENT_EXTENSION] as Requirement | undefined;
      const stricter = (field.extensions[ARGUMENT_REQUIREMENTS_EXTENSION] ?? []) as Array<{
        argument: string;
        requires: Requirement;
      }>;
      return {
        type: root?.name as 'Query' | 'Mutation',
        field: field.name,
        requirement: requirement ? { requires: requirement, row: tableRowOf(requirement) } : null,
        stricter: stricter.map(({ argument, requires }) => ({
          argument,
          requires,
          row: tableRowOf(requires),
        })),
      };
    }),
  );
}

function operationOf(query: string): OperationDefinitionNode {
  const operation = getOperationAST(parse(query));
  if (!operation) throw new Error('the document must hold exactly one operation');
  return operation;
}

/**
 * operationRequirements (src/http/operation-requirements.ts) of the document's operation on the server's
 * schema: without variables as a REST route is compiled, with them as a request is checked.
 */
async function operationRequirements(
  _app: unknown,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Requirement[]> {
  const schema = await sharedSchema();
  const operation = operationOf(query);
  return variables === undefined
    ? requirementsOf(schema, operation)
    : requirementsOf(schema, operation, new Map(), variables);
}

/** queryCost (src/http/query-limits.ts) of a document with these variables, on the server's schema. */
async function queryCost(
  _app: unknown,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<number> {
  return costOf(await sharedSchema(), parse(query), variables);
}

/** The rate-limit points a document with these variables is charged (ratePointsOf its queryCost). */
async function queryRatePoints(
  app: unknown,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<number> {
  return ratePointsOf(await queryCost(app, query, variables));
}

/** What one GraphQL document may ask for (src/http/query-limits.ts). */
async function queryLimits(): Promise<typeof QUERY_LIMITS> {
  return QUERY_LIMITS;
}

let routes: Promise<CompiledRouteData[]> | undefined;
/**
 * Every REST route compiled against the server's REST schema as the routers compile them (versioned first); once
 * per worker (the schema does not change).
 */
function compiledRoutes(): Promise<CompiledRouteData[]> {
  routes ??= compileRoutes();
  return routes;
}

async function compileRoutes(): Promise<CompiledRouteData[]> {
  const schema = restSchemaOf(await sharedSchema());
  const mounted = [
    ...VERSIONED_ROUTES.map((definition) => ({ prefix: '/v1' as const, definition })),
    ...FEATURE_ROUTES.map((definition) => ({ prefix: '/api' as const, definition })),
  ];
  return mounted.map(({ prefix, definition }) => {
    const route = compileRoute(definition, schema);
    return {
      prefix,
      definition: structuredClone(definition),
      variables: [...route.variables].map(([name, { type }]) => ({ name, type: String(type) })),
      sources: [...route.sources].map(([variable, { from }]) => ({ variable, from })),
    };
  });
}

/** Why compileRoute refuses this route on the server's schema (its error's message), or null when it accepts it. */
async function routeCompileError(_app: unknown, definition: RouteDefinition): Promise<string | null> {
  const schema = await sharedSchema();
  try {
    compileRoute(definition, schema);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

export const SERVER_SIDE_SCHEMA = {
  rootFieldRequirements,
  operationRequirements,
  queryCost,
  queryRatePoints,
  queryLimits,
  compiledRoutes,
  routeCompileError,
};
