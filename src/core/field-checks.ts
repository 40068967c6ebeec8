import { invalid, InvalidRequestError, type FieldProblem } from './errors.js';

/**
 * Runs every check of a request's fields, then refuses them together: one InvalidRequestError naming every
 * field a check refused, rather than the first (issue #32 item 2: every 400 names all its bad fields). Each
 * check is a function that returns its field's value or throws an InvalidRequestError; anything else it throws
 * passes through. The values come back in the checks' order.
 */
export function checkAll<T extends unknown[]>(...checks: { [K in keyof T]: () => T[K] }): T {
  const problems: FieldProblem[] = [];
  const values = checks.map((check) => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof InvalidRequestError)) throw error;
      problems.push(...((error.details.fields as FieldProblem[] | undefined) ?? []));
      return undefined;
    }
  });
  if (problems.length > 0) throw invalid(problems);
  return values as T;
}
