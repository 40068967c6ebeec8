/**
 * Written against graphql 16.15.0 (checked at start-up: ./versions.ts).
 *
 * Why: the REST adapter coerces a route's variables with graphql-js's `coerceInputValue`
 * (rest-adapter/compile.ts) and must name the client's field in a 400 (`details.fields`). For a missing or
 * unknown field of an input object, graphql-js reports the path of the object and names the field only in its
 * message text; this reads the name back from that text, so the client is told `password: is required` rather
 * than the enclosing object's name and a GraphQL sentence.
 *
 * The internals: the message texts of utilities/coerceInputValue.js, `Field "<name>" of required type
 * "<type>" was not provided.` and `Field "<name>" is not defined by type "<type>".` (plus a "Did you mean"
 * hint), which graphql-js does not treat as API. On another wording the field would be left out of the name
 * and the GraphQL sentence passed through: still a 400, a worse one. test/core/perf-tricks.test.ts checks
 * both messages against the installed graphql-js; test/users/users-create.test.ts checks the answers.
 */
const FIELD_MESSAGE = /^Field "([^"]+)" (is not defined by type|of required type "[^"]+" was not provided)/;

/** The field a coercion message names and the problem in the REST adapter's words, for those two messages. */
export function fieldOfCoercionMessage(
  message: string,
): { field: string; problem: 'is not a known field' | 'is required' } | null {
  const named = FIELD_MESSAGE.exec(message);
  if (!named) return null;
  return {
    field: named[1],
    problem: named[2].startsWith('is not defined') ? 'is not a known field' : 'is required',
  };
}
