import type { Request } from 'express';
import type { FieldProblem } from '../src/core/errors.js';
import type { CompiledRoute } from './compile.js';
import { TENANT_QUERY_PARAM } from './route.js';

/**
 * The shape of a request before its values are read (docs/api.md "Request rules"): the query string holds
 * only the parameters the route declares, each scalar parameter once and not empty, and a body comes as
 * JSON (or CSV where the route takes CSV). A request that breaks a rule is refused with a 400 naming the
 * parameter or header, rather than having a part of it silently ignored.
 */

/** Query parameter names the route reads: its own, `tenantId` on tenant routes, header aliases. */
function declaredQueryNames(route: CompiledRoute): Set<string> {
  const { definition } = route;
  const names = new Set(Object.keys(definition.query ?? {}));
  if (definition.tenant) names.add(TENANT_QUERY_PARAM);
  for (const mapping of Object.values(definition.headers ?? {}))
    if (mapping.queryAlias) names.add(mapping.queryAlias);
  return names;
}

/** `query`: the request's parsed query string (`req.query`, read once by the caller). */
export function queryProblems(route: CompiledRoute, query: Request['query']): FieldProblem[] {
  const declared = declaredQueryNames(route);
  const problems: FieldProblem[] = [];
  for (const [name, raw] of Object.entries(query)) {
    if (!declared.has(name)) {
      const known = [...declared].sort().join(', ');
      problems.push({
        field: name,
        problem: `is not a query parameter of this route (${known ? `known: ${known}` : 'it takes none'})`,
      });
      continue;
    }
    const type = route.definition.query?.[name]?.type ?? 'string';
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
      problems.push({ field: name, problem: 'must be a plain value, not name[key]=value' });
    } else if (type === 'stringList') {
      if (Array.isArray(raw) && raw.some((item) => typeof item !== 'string'))
        problems.push({ field: name, problem: 'must be a list of plain values' });
    } else if (Array.isArray(raw)) {
      // ?limit=1&limit=2 and ?limit[]=1. (tenantId may repeat the same tenant; handler.ts checks that.)
      if (name !== TENANT_QUERY_PARAM) problems.push({ field: name, problem: 'must be given once' });
    } else if (raw === '' && (type === 'int' || type === 'boolean')) {
      problems.push({ field: name, problem: 'must not be empty' });
    }
  }
  return problems;
}

function declaresBody(route: CompiledRoute): boolean {
  return route.definition.body !== undefined || route.definition.csvBody !== undefined;
}

/** A body is on its way: a positive Content-Length or a chunked transfer. */
function carriesBody(req: Request): boolean {
  const length = Number(req.headers['content-length'] ?? '0');
  return req.headers['transfer-encoding'] !== undefined || (Number.isFinite(length) && length > 0);
}

/**
 * A body the parsers did not read (another Content-Type) would be dropped without a word and the request
 * would run as if it had no body: refused instead. A route without a body takes none, or an empty JSON object.
 */
export function bodyProblem(route: CompiledRoute, req: Request): FieldProblem | null {
  const parsed: unknown = req.body;
  if (parsed === undefined) {
    if (!carriesBody(req)) return null;
    const accepted = route.definition.csvBody ? 'application/json or text/csv' : 'application/json';
    const given = req.headers['content-type'] ?? 'none';
    return declaresBody(route)
      ? { field: 'Content-Type', problem: `must be ${accepted} (was ${given})` }
      : { field: 'body', problem: 'must be empty: this route takes no request body' };
  }
  if (!declaresBody(route)) {
    const empty = typeof parsed === 'object' && parsed !== null && Object.keys(parsed).length === 0;
    if (!empty) return { field: 'body', problem: 'must be empty: this route takes no request body' };
  }
  return null;
}
