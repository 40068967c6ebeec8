import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Kind, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../src/core/request-context.js';
import {
  invalid,
  InvalidRequestError,
  NotFoundError,
  toAppError,
  type FieldProblem,
} from '../src/core/errors.js';
import { fieldOfCoercionMessage } from '../src/core/perf/graphql-coercion-messages.js';
import { coercionProblems, type CompiledRoute, type CoercionProblem } from './compile.js';
import { assertRequirements } from '../src/http/operation-requirements.js';
import { sendJson } from '../src/http/respond.js';
import { successEnvelope } from './envelope.js';
import { bodyProblem, queryProblems } from './request-input.js';
import { unsafeTextProblems } from '../src/http/input/unsafe-text.js';
import {
  argumentRuleProblems,
  coercedOrUndefined,
  fieldsWithArguments,
} from '../src/http/input/argument-rules.js';
import { TENANT_HEADER, TENANT_QUERY_PARAM, type QueryParamType } from './route.js';

/** graphql-js's message for an explicit null in a non-null argument position (its default does not apply). */
const NULL_ARGUMENT = /^Argument "(\w+)" of non-null type "[^"]+" must not be null\.$/;

export interface HandlerDeps {
  /** The REST copy of the schema (SPEC enum spellings). */
  schema: GraphQLSchema;
  contextFor(req: Request): RequestContext;
  logError(error: unknown, req: Request): void;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A date alone (YYYY-MM-DD) as the start of that UTC day, plus `days`; anything else unchanged, for the
 * DateTime scalar to accept or refuse (400 naming the parameter). An impossible date (2026-02-30) is not
 * rolled over into the next month.
 */
function dayStart(text: string, days: number): string {
  const match = DATE_ONLY.exec(text);
  if (!match) return text;
  const [year, month, day] = match.slice(1).map(Number);
  const start = new Date(Date.UTC(year, month - 1, day));
  if (start.getUTCFullYear() !== year || start.getUTCMonth() !== month - 1 || start.getUTCDate() !== day)
    return text;
  return new Date(start.getTime() + days * DAY_MS).toISOString();
}

function convertQueryValue(raw: unknown, type: QueryParamType): unknown {
  const text = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  switch (type) {
    case 'int':
      return typeof text === 'string' && /^-?\d+$/.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'stringList':
      return (Array.isArray(raw) ? raw : [raw]).flatMap((v) => String(v).split(',')).filter((v) => v !== '');
    case 'string':
      return typeof text === 'string' ? text : String(text);
    case 'dateTime':
      return dayStart(String(text), 0);
    case 'dateTimeUntil':
      return dayStart(String(text), 1);
  }
}

/**
 * The tenant a tenant-scoped route acts in: the header X-Tenant-Id or the query parameter tenantId
 * (undefined when neither is given; the variable's required check then names X-Tenant-Id). Two different
 * values (header and query, the header or the parameter repeated) are refused rather than one picked.
 */
function selectedTenant(req: Request, parsedQuery: Request['query']): string | undefined {
  const query: unknown = parsedQuery[TENANT_QUERY_PARAM];
  // Node joins a repeated header with ", ": each part is one value given.
  const header = req.get(TENANT_HEADER)?.split(',') ?? [];
  const given = [...header, ...(Array.isArray(query) ? query : [query])]
    .filter((value): value is string => typeof value === 'string')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  const distinct = [...new Set(given.map((value) => value.toLowerCase()))];
  if (distinct.length > 1) {
    throw new InvalidRequestError(
      `${TENANT_HEADER} (or the query parameter ${TENANT_QUERY_PARAM}) names different tenants`,
      [{ field: TENANT_HEADER, problem: `names more than one tenant: ${given.join(', ')}` }],
    );
  }
  return given[0];
}

/** Builds the operation's variables from the path, query string, headers and body. */
function variablesOf(route: CompiledRoute, req: Request): Record<string, unknown> {
  const { definition } = route;
  // Read once: Express 5's `req.query` is a getter that runs the query parser again on every read.
  const query = req.query;
  const shapeProblems = queryProblems(route, query);
  const body = bodyProblem(route, req);
  if (body) shapeProblems.push(body);
  if (shapeProblems.length > 0) {
    throw new InvalidRequestError(
      `Invalid request: ${shapeProblems.map((f) => `${f.field} ${f.problem}`).join('; ')}`,
      shapeProblems,
    );
  }
  const variables: Record<string, unknown> = {};
  for (const [param, variable] of Object.entries(definition.params ?? {}))
    variables[variable] = req.params[param];
  for (const [param, mapping] of Object.entries(definition.query ?? {})) {
    const raw = query[param];
    if (raw !== undefined && raw !== '')
      variables[mapping.variable ?? param] = convertQueryValue(raw, mapping.type);
  }
  if (definition.tenant) {
    const tenantId = selectedTenant(req, query);
    if (tenantId !== undefined) variables[definition.tenant] = tenantId;
  }
  for (const [header, mapping] of Object.entries(definition.headers ?? {})) {
    const value = req.get(header) ?? (mapping.queryAlias ? query[mapping.queryAlias] : undefined);
    if (typeof value === 'string' && value !== '') variables[mapping.variable] = value;
  }
  if (definition.csvBody && typeof req.body === 'string') {
    variables[definition.csvBody] = req.body;
  } else if (definition.body) {
    const body: unknown = req.body ?? {};
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new InvalidRequestError('The request body must be a JSON object', [
        { field: 'body', problem: 'must be a JSON object' },
      ]);
    }
    if (definition.body === 'spread') {
      for (const [key, value] of Object.entries(body)) {
        const source = route.sources.get(key)?.from;
        // A variable the route also maps from the query string may come in the body too (filters on a GET).
        if (!route.variables.has(key) || (source !== undefined && source !== 'query')) {
          throw new InvalidRequestError(`Unknown field "${key}"`, [
            { field: key, problem: 'is not a known field' },
          ]);
        }
        if (source === 'query' && variables[key] !== undefined) continue; // the query string wins
        variables[key] = value;
      }
    } else {
      variables[definition.body] = body;
    }
  }
  return variables;
}

/** Turns a type problem into the field name the client used and a sentence a person understands. */
function fieldProblem(route: CompiledRoute, problem: CoercionProblem): FieldProblem {
  const source = route.sources.get(problem.variable) ?? { from: 'body' as const, name: problem.variable };
  const prefix = source.from === 'body' ? (source.name === '' ? '' : source.name) : source.name;
  let path = problem.path;
  let text = problem.problem;
  if (source.from === 'tenant') {
    return {
      field: source.name,
      problem: `is required: the header ${TENANT_HEADER} (or the query parameter ${TENANT_QUERY_PARAM}) selects the tenant`,
    };
  }
  const named = fieldOfCoercionMessage(text);
  if (named) {
    path = path ? `${path}.${named.field}` : named.field;
    text = named.problem;
  }
  const field = [prefix, path].filter((part) => part !== '').join('.') || problem.variable;
  return { field, problem: text };
}

/** Strings PostgreSQL cannot store (NUL, lone surrogates), anywhere in any variable (src/http/input). */
function textProblems(variables: Record<string, unknown>): CoercionProblem[] {
  return Object.entries(variables).flatMap(([variable, value]) =>
    unsafeTextProblems(value).map(({ path, problem }) => ({ variable, path: path.join('.'), problem })),
  );
}

/**
 * The rules (class-validator) of the arguments whose values have the right type, for a request refused for
 * the types of others: every bad field is named at once (issue #32 item 2: a bad `tenantGroupId` hid a bad
 * `limit`). Arguments written into the route's document are the route's own and always right.
 */
async function rulesOfWellTypedArguments(
  route: CompiledRoute,
  schema: GraphQLSchema,
  variables: Record<string, unknown>,
  typeProblems: CoercionProblem[],
): Promise<CoercionProblem[]> {
  const badVariables = new Set(typeProblems.map((problem) => problem.variable));
  const problems: CoercionProblem[] = [];
  for (const { parent, field, node } of fieldsWithArguments(schema, route.document)) {
    const args: Record<string, unknown> = {};
    const variableOf = new Map<string, string>();
    for (const argument of node.arguments ?? []) {
      if (argument.value.kind !== Kind.VARIABLE) continue;
      const variable = argument.value.name.value;
      const declared = route.variables.get(variable);
      if (!declared || badVariables.has(variable) || variables[variable] === undefined) continue;
      const value = coercedOrUndefined(variables[variable], declared.type);
      if (value === undefined) continue;
      args[argument.name.value] = value;
      variableOf.set(argument.name.value, variable);
    }
    for (const { argument, path, problem } of await argumentRuleProblems(parent, field, args))
      problems.push({ variable: variableOf.get(argument) ?? argument, path, problem });
  }
  return problems;
}

/** The one handler behind every REST route: variables in, operation executed in-process, envelope out. */
export function restHandler(route: CompiledRoute, deps: HandlerDeps): RequestHandler {
  const status = route.definition.status ?? 200;
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      // Permission first: a caller who may not call the route learns nothing about its input or records.
      if (req.viewer) assertRequirements(req.viewer, route.requirements);
      if (req.bodyError !== undefined) throw req.bodyError; // a body that could not be read (400)
      const variables = variablesOf(route, req);
      // An argument that asks for more (offboarding's deleteUser) is refused too before the input is validated.
      if (req.viewer) assertRequirements(req.viewer, route.requirementsFor(variables));
      const coerced: Record<string, unknown> = {};
      const problems = [...coercionProblems(route, variables, coerced), ...textProblems(variables)];
      if (problems.length > 0) {
        // An id that cannot exist (not a UUID) names nothing: 404, whether in the path or X-Tenant-Id.
        const unknownId = problems.find((p) => {
          const from = route.sources.get(p.variable)?.from;
          return (from === 'path' || from === 'tenant') && variables[p.variable] !== undefined;
        });
        if (unknownId) {
          const resource = route.sources.get(unknownId.variable)?.from === 'tenant' ? 'Tenant' : 'Resource';
          throw new NotFoundError(resource, String(variables[unknownId.variable]));
        }
        const rules = await rulesOfWellTypedArguments(route, deps.schema, variables, problems);
        throw invalid([...problems, ...rules].map((p) => fieldProblem(route, p)));
      }
      const context = deps.contextFor(req);
      // Checked above, before the input: the resolver's @RequirePermission does not check a second time.
      if (req.viewer) context.preAuthorized = route.preAuthorized;
      const result = await route.run(context, variables, coerced);
      if (result.errors?.length) {
        const [first] = result.errors;
        // A null sent for an argument that has a default but is not nullable (`"dryRun": null`): graphql-js
        // refuses it while executing, with no original error; it is the client's input (issue #32 item 9).
        const nulled = first.originalError ? null : NULL_ARGUMENT.exec(first.message);
        if (nulled)
          throw invalid([{ field: nulled[1], problem: 'must not be null (leave it out for its default)' }]);
        const appError = toAppError(first.originalError ?? first);
        if (appError.code === 'INTERNAL_ERROR') deps.logError(first.originalError ?? first, req);
        throw appError;
      }
      const data = result.data?.[route.rootField] as Record<string, unknown> | null | undefined;
      const etag = route.definition.etag ? data?.[route.definition.etag] : undefined;
      if (typeof etag === 'number' || typeof etag === 'string') res.set('ETag', `"${etag}"`);
      sendJson(res, status, successEnvelope(data, route.definition.metaFields));
    } catch (error) {
      next(error);
    }
  };
}
