import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { GraphQLInputObjectType, GraphQLNonNull, type GraphQLInputType } from 'graphql';
import type { CompiledRoute } from '../../../rest-adapter/compile.js';
import { TENANT_HEADER, TENANT_QUERY_PARAM } from '../../../rest-adapter/route.js';
import { nastyString, objectValue, valueOf, type ValueContext } from './values.js';

/** One HTTP request, ready to send as is (path already encoded, body already bytes). */
export interface RestCase {
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

/**
 * What the fuzz reads of a compiled route (rest-adapter/compile.ts): its definition, its variables' types and
 * which variables come from elsewhere than the body. Rebuilt in the file from the server's (fuzz/routes.ts).
 */
export interface FuzzRoute {
  definition: CompiledRoute['definition'];
  variables: ReadonlyMap<string, { type: GraphQLInputType }>;
  sources: ReadonlyMap<string, unknown>;
}

export interface RestFuzzContext extends ValueContext {
  /** Mount points: '/v1' for versioned routes, '/api' (or '/v1/api') for feature routes. */
  prefix: string;
  tenantIds: string[];
  keys: string[];
}

/** encodeURIComponent, except for lone surrogates (it throws): those go out as the bytes of U+FFFD. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%EF%BF%BD';
  }
}

const MALFORMED_PATH_SEGMENTS = ['%ff', '%', '%zz', '%ED%A0%80', '%00', '%2F', '..', '%252e'];

function pathValue(context: RestFuzzContext): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 14, arbitrary: fc.constantFrom(...context.ids).map(encode) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.uuid(), fc.boolean()).map(([id, upper]) => (upper ? id.toUpperCase() : id)),
    },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_PATH_SEGMENTS) },
    { weight: 2, arbitrary: nastyString.filter((s) => s !== '').map(encode) },
  );
}

/** Declared parameters with ordinary values: what a correct client sends. */
function plainQueryString(route: FuzzRoute): fc.Arbitrary<string> {
  const declared = Object.entries(route.definition.query ?? {});
  const valueOfType = {
    int: '5',
    boolean: 'true',
    string: 'a',
    stringList: 'a,b',
    dateTime: '2026-11-20',
    dateTimeUntil: '2026-11-20',
  } as const;
  return fc
    .subarray(declared, { maxLength: Math.min(2, declared.length) })
    .map((chosen) => chosen.map(([name, { type }]) => `${name}=${valueOfType[type]}`).join('&'));
}

/** Declared parameters with good and bad values, repeated, `name[]`, `name[k]`, and unknown ones. */
function queryString(route: FuzzRoute, context: RestFuzzContext): fc.Arbitrary<string> {
  const names = [...Object.keys(route.definition.query ?? {}), 'unknownParam'];
  if (route.definition.tenant) names.push(TENANT_QUERY_PARAM);
  const value = fc.oneof(
    fc.constantFrom('1', '0', '-1', '101', '25', 'true', '', '1.5', '99999999999999999999'),
    fc.constantFrom(...context.ids),
    nastyString,
  );
  const pair = fc.tuple(fc.constantFrom(...names), fc.constantFrom('', '', '', '[]', '[k]'), value);
  return fc
    .array(pair, { maxLength: 4 })
    .map((pairs) => pairs.map(([name, suffix, v]) => `${encode(name)}${suffix}=${encode(v)}`).join('&'));
}

/** The body as the route reads it: its input object, its spread variables, or CSV, or something else. */
function bodyValue(route: FuzzRoute, context: RestFuzzContext): fc.Arbitrary<unknown> {
  const { body } = route.definition;
  const shaped: fc.Arbitrary<unknown>[] = [];
  if (body && body !== 'spread') {
    const type = route.variables.get(body)?.type;
    const inner = type instanceof GraphQLNonNull ? type.ofType : type;
    if (inner instanceof GraphQLInputObjectType) shaped.push(objectValue(inner, context));
  } else if (body === 'spread') {
    const spread = [...route.variables].filter(([name]) => !route.sources.has(name));
    shaped.push(
      fc
        .tuple(
          ...spread.map(([name, { type }]) =>
            fc.option(valueOf(type, context).map((v) => [name, v] as const)),
          ),
        )
        .map((pairs) => Object.fromEntries(pairs.filter((pair) => pair !== null))),
    );
  }
  // Issue #32 item 9: every field the body may hold, given as null (`"dryRun": null` was a 500).
  const names = bodyFieldNames(route);
  const allNull = names.length
    ? [{ weight: 1, arbitrary: fc.constant(Object.fromEntries(names.map((n) => [n, null]))) }]
    : [];
  return fc.oneof(
    ...shaped.map((arbitrary) => ({ weight: 6, arbitrary })),
    ...allNull,
    { weight: 1, arbitrary: fc.constantFrom({}, [], 'text', 42, null) },
    { weight: 1, arbitrary: fc.constantFrom(undefined) },
  );
}

/** The top-level fields of the route's body: its input object's fields, or its spread variables. */
function bodyFieldNames(route: FuzzRoute): string[] {
  const { body } = route.definition;
  if (body === 'spread') return [...route.variables.keys()].filter((name) => !route.sources.has(name));
  if (!body) return [];
  const type = route.variables.get(body)?.type;
  const inner = type instanceof GraphQLNonNull ? type.ofType : type;
  return inner instanceof GraphQLInputObjectType ? Object.keys(inner.getFields()) : [];
}

/** A body nested `depth` levels deep (issue #32 item 9: 10,000 and 100,000 deep were 500s on 33 routes). */
const nested = (depth: number, open: string, close: string) => `${open.repeat(depth)}${close.repeat(depth)}`;

const RAW_BODIES = [
  '{"a":',
  '',
  '{"a":1,"a":2}',
  'DisplayName,EmailAddress\nx,\u0000@x.com\n',
  '\u0000',
  '[1,2',
  nested(10_000, '[', ']'),
  nested(100_000, '[', ']'),
  `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
  `{"input":${nested(101, '[', ']')}}`,
];
const ODD_CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/merge-patch+json',
  'text/plain',
  'text/csv',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
];
type Encoding = 'none' | 'gzip' | 'gzip-not-compressed' | 'br-not-compressed' | 'compress';
const ODD_ENCODINGS: Encoding[] = ['gzip', 'gzip-not-compressed', 'br-not-compressed', 'compress'];
const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Every request the fuzzer may send to `route`, as an arbitrary (seeded by the caller). */
export function restCases(route: FuzzRoute, context: RestFuzzContext): fc.Arbitrary<RestCase> {
  const { definition } = route;
  const params = definition.path.match(/:[A-Za-z]+/g) ?? [];
  return fc
    .record({
      method: fc.oneof(
        { weight: 30, arbitrary: fc.constant(definition.method) },
        fc.constantFrom(...OTHER_METHODS),
      ),
      params: fc.tuple(...params.map(() => pathValue(context))),
      query: fc.oneof({ weight: 3, arbitrary: plainQueryString(route) }, queryString(route, context)),
      tenant: fc.oneof(
        { weight: 20, arbitrary: fc.constant(context.tenantIds[0]) },
        fc.constantFrom(...context.tenantIds),
        fc.constantFrom(
          undefined,
          '',
          'nope',
          `{${context.tenantIds[0]}}`,
          context.tenantIds[0].toUpperCase(),
        ),
        fc.uuid(),
      ),
      key: fc.constantFrom(...context.keys),
      body: bodyValue(route, context),
      raw: fc.option(fc.constantFrom(...RAW_BODIES), { freq: 10 }),
      // Each dimension is mostly what a correct client sends, so that some cases get through to the service.
      contentType: fc.oneof(
        { weight: 8, arbitrary: fc.constant('application/json') },
        fc.constantFrom(...ODD_CONTENT_TYPES),
      ),
      encoding: fc.oneof(
        { weight: 8, arbitrary: fc.constant<Encoding>('none') },
        fc.constantFrom(...ODD_ENCODINGS),
      ),
    })
    .map((c) => {
      let path = definition.path;
      params.forEach((param, index) => (path = path.replace(param, c.params[index])));
      const headers: Record<string, string> = { authorization: `Bearer ${c.key}` };
      if (definition.tenant && c.tenant !== undefined) headers[TENANT_HEADER] = c.tenant;
      if (c.contentType) headers['content-type'] = c.contentType;
      const text = c.raw ?? (c.body === undefined ? null : JSON.stringify(c.body));
      let body = text === null ? null : Buffer.from(text);
      if (body && c.encoding !== 'none') {
        const header = {
          gzip: 'gzip',
          'gzip-not-compressed': 'gzip',
          'br-not-compressed': 'br',
          compress: 'compress',
        };
        headers['content-encoding'] = header[c.encoding];
        if (c.encoding === 'gzip') body = gzipSync(body);
      }
      return {
        route: `${definition.method} ${context.prefix}${definition.path}`,
        method: c.method,
        path: `${context.prefix}${path}${c.query ? `?${c.query}` : ''}`,
        headers,
        body,
      };
    });
}
