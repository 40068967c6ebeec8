import fc from 'fast-check';
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  type GraphQLInputType,
} from 'graphql';

/**
 * Values for any GraphQL input type, read from the schema (so new inputs are covered without a line here):
 * mostly well-typed values with odd content, sometimes the wrong type, a missing or unknown field.
 */

/** Strings that have broken something somewhere: NUL, lone surrogates, huge, empty, markup, paths, RTL. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\ud83d',
  'x'.repeat(5000),
  '%00',
  '%ff',
  "'; drop table users; --",
  '../../etc/passwd',
  '{{7*7}}${7*7}',
  '\u202eevil',
  'Zoë 😀 ünïcødé',
  '=cmd|" /C calc"!A0',
  'https://example.com/x',
  'user@example.com',
  '  padded  ',
  '\r\n\t',
  'null',
  '0',
  '-1',
  '1e309',
  '__proto__',
];

/**
 * Up to 20 code points of the whole Unicode range (surrogate halves excepted), as `fc.string({ unit: 'binary' })`
 * draws them. Not that arbitrary itself: fast-check places its list of troublesome strings (`__proto__`,
 * `valueOf`...) in every string arbitrary, and for the binary unit it first maps all 1.1 million code points back
 * to their index, about 0.9 s of CPU at each load of this module. The plain strings below still get that list.
 */
const binaryString: fc.Arbitrary<string> = fc
  .array(fc.integer({ min: 0, max: 0x10ffff - 0x800 }), { maxLength: 20 })
  .map((codes) => String.fromCodePoint(...codes.map((code) => (code < 0xd800 ? code : code + 0x800))));

/**
 * Web URLs as `fc.webUrl()` makes them (scheme, domain, path segments of unreserved characters and, one in
 * eleven, a percent-encoded code point, a query and a fragment). Not that arbitrary itself: its percent-encoded
 * characters are the binary-unit string above, so building it maps the 1.1 million code points back as well,
 * 1.5-5 s of CPU at each load of this module (the fuzz file's largest single cost after its requests).
 */
const URL_CHARACTERS = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@"];
const urlSegment: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 10, arbitrary: fc.constantFrom(...URL_CHARACTERS) },
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: 0, max: 0x10ffff - 0x800 })
          .map((code) => encodeURIComponent(String.fromCodePoint(code < 0xd800 ? code : code + 0x800))),
      },
    ),
    { maxLength: 10 },
  )
  .map((characters) => characters.join(''));
const webUrl: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('http', 'https'),
    fc.domain(),
    fc.array(urlSegment, { maxLength: 5 }),
    fc.option(urlSegment),
    fc.option(urlSegment),
  )
  .map(
    ([scheme, domain, path, query, fragment]) =>
      `${scheme}://${domain}${path.map((segment) => `/${segment}`).join('')}` +
      `${query === null ? '' : `?${query}`}${fragment === null ? '' : `#${fragment}`}`,
  );

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: binaryString },
);

/** A value of no particular type: what a client sends when it gets the type wrong. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.integer(),
  fc.constantFrom(2 ** 31, -(2 ** 53), 1.5, Number.MAX_VALUE),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', 'id', '__proto__', 'constructor'), fc.string(), { maxKeys: 2 }),
);

export interface ValueContext {
  /** Real ids of the fuzzed organization (tenant, user, ...) and of another organization. */
  ids: string[];
  /** Enum values as the surface spells them: SPEC spelling on REST, UPPER_SNAKE names on GraphQL. */
  enumSpelling: 'rest' | 'graphql';
  /**
   * REST's spelling: each enum's internal values by its name, in the app's order (the server's, onServer
   * `enumInternalValues`: the file's schema is built from SDL, whose enums carry only their names).
   */
  restEnumValues?: Readonly<Record<string, readonly string[]>>;
  /**
   * A value that passes the field's own rules (a UPN in the tenant's domain, a public URL), by field name:
   * with them, a case gets past the first check and its other fields reach the service and the database.
   */
  plausible?: (fieldName: string) => fc.Arbitrary<unknown> | undefined;
}

function scalarValue(type: GraphQLScalarType, context: ValueContext): fc.Arbitrary<unknown> {
  switch (type.name) {
    case 'String':
    case 'ID':
      return nastyString;
    case 'Int':
      return fc.oneof(fc.integer({ min: -5, max: 200 }), fc.constantFrom(0, 2 ** 31, -(2 ** 31) - 1, 1.5));
    case 'Float':
      return fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(0, -1, 1e308));
    case 'Boolean':
      return fc.boolean();
    case 'UUID':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...context.ids) },
        { weight: 1, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.constantFrom(...context.ids.map((id) => `{${id}}`), 'not-a-uuid', '') },
      );
    case 'DateTime':
    case 'DateTimeISO':
      return fc.oneof(
        fc
          .date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString()),
        fc.constantFrom('2026-13-45T99:99:99Z', 'yesterday', '0000-00-00'),
      );
    default:
      // JSON objects, e-mail addresses, URLs and whatever scalars come next.
      return fc.oneof(nastyString, anyJson, fc.emailAddress(), webUrl);
  }
}

function enumValue(type: GraphQLEnumType, context: ValueContext): fc.Arbitrary<unknown> {
  const spelled =
    context.enumSpelling === 'rest'
      ? context.restEnumValues?.[type.name]
      : type.getValues().map((value) => value.name);
  if (!spelled?.length) throw new Error(`no ${context.enumSpelling} spelling of the enum ${type.name}`);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...spelled) },
    { weight: 1, arbitrary: nastyString },
  );
}

/** A value of `type`, or (rarely) one of the wrong type; depth-limited for recursive inputs. */
export function valueOf(type: GraphQLInputType, context: ValueContext, depth = 0): fc.Arbitrary<unknown> {
  const wellTyped = wellTypedValueOf(type, context, depth);
  return fc.oneof({ weight: 9, arbitrary: wellTyped }, { weight: 1, arbitrary: anyJson });
}

function wellTypedValueOf(
  type: GraphQLInputType,
  context: ValueContext,
  depth: number,
): fc.Arbitrary<unknown> {
  if (type instanceof GraphQLNonNull) return wellTypedValueOf(type.ofType, context, depth);
  if (type instanceof GraphQLList)
    return fc.array(valueOf(type.ofType, context, depth + 1), { maxLength: depth > 2 ? 1 : 4 });
  if (type instanceof GraphQLEnumType) return enumValue(type, context);
  if (type instanceof GraphQLScalarType) return scalarValue(type, context);
  return objectValue(type, context, depth);
}

/** An input object: any subset of its fields (required ones mostly present), sometimes an unknown field. */
export function objectValue(
  type: GraphQLInputObjectType,
  context: ValueContext,
  depth = 0,
): fc.Arbitrary<Record<string, unknown>> {
  if (depth > 4) return fc.constant({});
  const fields = Object.values(type.getFields());
  const entries = fields.map((field) => {
    const required = field.type instanceof GraphQLNonNull && field.defaultValue === undefined;
    const present = required ? fc.double({ min: 0, max: 1 }).map((x) => x < 0.9) : fc.boolean();
    const generic = valueOf(field.type, context, depth + 1);
    const plausible = context.plausible?.(field.name);
    const value = plausible
      ? fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 2, arbitrary: generic })
      : generic;
    return fc.tuple(present, value).map(([keep, v]) => (keep ? ([field.name, v] as const) : null));
  });
  const unknown = fc.option(
    fc.tuple(fc.constantFrom('unknownField', 'id', 'organizationId', '__proto__'), anyJson),
    {
      freq: 8,
    },
  );
  return fc.tuple(fc.tuple(...entries), unknown).map(([pairs, extra]) => {
    const object: Record<string, unknown> = {};
    for (const pair of pairs) if (pair) object[pair[0]] = pair[1];
    if (extra) Object.defineProperty(object, extra[0], { value: extra[1], enumerable: true, writable: true });
    return object;
  });
}
