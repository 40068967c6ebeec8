/**
 * Express's extended query parser (`qs.parse(text, { allowPrototypes: true })`) with a fast path in front of it for
 * the plain query strings nearly every request sends (`limit=25&page=2`, `tenantId=<uuid>`, none at all). qs builds
 * each key through its bracket, dot, array and merge machinery, which was 2.5% of a REST users list's CPU (issue #31,
 * ninth round) for a string as plain as `limit=25`.
 *
 * The fast path answers only when the answer is certain to be qs's: every part `key` or `key=value`, each key made
 * of ASCII letters, digits, `_` and `-` (nothing qs decodes or splits) and not a property of `Object.prototype`,
 * every key once, no `[` or `]` anywhere, written or as `%5B` / `%5D` (qs looks for `]=` in the whole part), no `+`
 * (qs reads it as a space),
 * values decoded as qs decodes them (`decodeURIComponent`; an escape it refuses sends the string to qs), at most
 * 1,024 characters. Anything else (brackets, repeated keys, `+`, bad escapes, empty parts, `__proto__`, long
 * strings) goes to qs itself. test/http/query-string.test.ts compares both over a generated corpus.
 */
export type QueryParser = (text: string | null | undefined) => Record<string, unknown>;

const MAX_FAST_LENGTH = 1024;

/** `[A-Za-z0-9_-]` */
function isKeyCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 45
  );
}

/** The parsed query when the fast path can answer it exactly, else undefined. */
export function plainQuery(text: string | null | undefined): Record<string, unknown> | undefined {
  const result: Record<string, unknown> = {};
  if (text === null || text === undefined || text === '') return result;
  if (typeof text !== 'string' || text.length > MAX_FAST_LENGTH) return undefined;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    let keyEnd = start;
    while (keyEnd < end && isKeyCode(text.charCodeAt(keyEnd))) keyEnd++;
    if (keyEnd === start) return undefined; // an empty part or key, or a key qs would decode or split
    const key = text.slice(start, keyEnd);
    if (key in Object.prototype || Object.hasOwn(result, key)) return undefined;
    let value = '';
    if (keyEnd < end) {
      if (text.charCodeAt(keyEnd) !== 61) return undefined; // `=`
      const raw = text.slice(keyEnd + 1, end);
      for (let index = 0; index < raw.length; index++) {
        const code = raw.charCodeAt(index);
        if (code === 43 || code === 91 || code === 93) return undefined; // `+`, `[`, `]`
      }
      if (raw.includes('%')) {
        try {
          value = decodeURIComponent(raw);
        } catch {
          return undefined;
        }
        // qs turns `%5B` / `%5D` into brackets before it splits the part (`a=%5D=b` is the key `a=]`).
        if (value.includes('[') || value.includes(']')) return undefined;
      } else value = raw;
    }
    result[key] = value;
    start = end + 1;
  }
  return result;
}

/** Express's compiled extended parser (`app.get('query parser fn')`) behind the fast path. */
export function withPlainQueryFastPath(extended: QueryParser): QueryParser {
  return (text) => plainQuery(text) ?? extended(text);
}
