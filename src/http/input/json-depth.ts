/**
 * The deepest nesting a JSON request body may have (issue #32 item 9: bodies nested 10,000 or 100,000 deep
 * gave 500s on 33 routes, in the recursive code that walks a parsed body). The raw bytes are scanned before
 * `JSON.parse` runs (the body parser's `verify` hook), so a deep body is refused without being parsed: 400
 * naming `body`. A hundred levels is far deeper than any input of the API.
 */
export const MAX_JSON_DEPTH = 100;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/** The error the body parser passes on (its `type` is read by httpInputError). */
export class JsonTooDeepError extends Error {
  readonly type = 'entity.too.deep';
  constructor() {
    super(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
}

/** Whether the JSON text in `bytes` nests objects and arrays deeper than `max` (strings skipped). */
export function nestedDeeperThan(bytes: Uint8Array, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
  }
  return false;
}

/** The body parser's `verify` hook: throws JsonTooDeepError for a body over MAX_JSON_DEPTH. */
export function refuseDeepJson(_req: unknown, _res: unknown, bytes: Buffer): void {
  if (nestedDeeperThan(bytes)) throw new JsonTooDeepError();
}
