/**
 * Text PostgreSQL cannot store: NUL (text columns refuse U+0000, 22P05) and lone UTF-16 surrogates (JSON
 * can carry `"\ud800"`, which has no UTF-8 form, 22P02). Every string that enters the service (REST body,
 * query, path and CSV text; GraphQL variables and literals) is checked here, once, before any work is done,
 * so the answer is a 400 naming the field instead of a driver error deep inside a transaction.
 */
const UNSAFE_CHARACTER = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be stored, or null when it can. */
export function unsafeTextProblem(text: string): string | null {
  const match = UNSAFE_CHARACTER.exec(text);
  if (!match) return null;
  const where = positionOf(text, match.index);
  return match[0] === '\u0000'
    ? `must not contain a NUL character (U+0000)${where}`
    : `must not contain a lone UTF-16 surrogate (U+${match[0].charCodeAt(0).toString(16).toUpperCase()})${where}`;
}

/** " at line L" for multi-line text (a CSV body), "" otherwise: enough to find the character. */
function positionOf(text: string, index: number): string {
  if (!text.includes('\n')) return '';
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return ` at line ${line}`;
}

/** A problem found inside a value: the path to it (object keys and list indexes) and what is wrong. */
export interface TextProblem {
  path: Array<string | number>;
  problem: string;
}

/** Stops a pathological input (a list of 100,000 bad strings) from costing more than the answer shows. */
const MAX_TEXT_PROBLEMS = 50;

/**
 * Every unsafe string in `value` (strings, object keys, nested lists and objects), in document order.
 * An unsafe object key is reported at the key itself.
 */
export function unsafeTextProblems(value: unknown): TextProblem[] {
  const problems: TextProblem[] = [];
  const visit = (current: unknown, path: Array<string | number>): void => {
    if (problems.length >= MAX_TEXT_PROBLEMS) return;
    if (typeof current === 'string') {
      const problem = unsafeTextProblem(current);
      if (problem) problems.push({ path, problem });
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => visit(item, [...path, index]));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const keyProblem = unsafeTextProblem(key);
        if (keyProblem) problems.push({ path: [...path, key], problem: `has a name that ${keyProblem}` });
        else visit(item, [...path, key]);
      }
    }
  };
  visit(value, []);
  return problems;
}
