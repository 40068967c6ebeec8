import { buildSchema, parseType, typeFromAST, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { onServer } from '../../helpers/on-server.js';
import type { TestServer } from '../../helpers/shared-suite.js';
import type { FuzzRoute } from './rest-cases.js';

/**
 * What the fuzz draws its cases from, asked of the server instead of built in the file (evaluating the app's
 * modules and building its schema cost the file about 2 s of CPU): the schema it serves, as SDL in the app's own
 * order (the committed one is sorted, and the order of fields, arguments and enum values decides which case a
 * seed draws), its enums' internal values (REST's spelling, which SDL does not carry), and every route compiled
 * as the routers compile it (versioned first), whose variables' types are then read from that SDL.
 */
export interface FuzzTargets {
  schema: GraphQLSchema;
  restEnumValues: Record<string, string[]>;
  routes: Array<{ prefix: string; route: FuzzRoute }>;
}

export async function fuzzTargets(app: TestServer): Promise<FuzzTargets> {
  const [sdl, restEnumValues, compiled] = await Promise.all([
    onServer(app, 'servedSchemaSdl'),
    onServer(app, 'enumInternalValues'),
    onServer(app, 'compiledRoutes'),
  ]);
  const schema = buildSchema(sdl);
  const typeOf = (type: string): GraphQLInputType => {
    const found = typeFromAST(schema, parseType(type));
    if (!found) throw new Error(`${type} is not in the served schema`);
    return found as GraphQLInputType;
  };
  const routes = compiled.map(({ prefix, definition, variables, sources }) => ({
    prefix,
    route: {
      definition,
      variables: new Map(variables.map(({ name, type }) => [name, { type: typeOf(type) }])),
      sources: new Map(sources.map((source) => [source.variable, source])),
    },
  }));
  return { schema, restEnumValues, routes };
}
