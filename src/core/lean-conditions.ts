import { InvalidRequestError } from './errors.js';
import type { LeanCondition } from './lean-read.js';

/** Builders of findLeanPage conditions for list filters (columns are trusted names, values are bound). */

const quote = (column: string) => `"${column.replace(/"/g, '""')}"`;

/** `column` is one of `values`; nothing when the filter is absent or empty. */
export function anyOf(column: string, values: readonly unknown[] | null | undefined): LeanCondition[] {
  if (!values || values.length === 0) return [];
  return [{ sql: `${quote(column)} in (?)`, params: [[...new Set(values)]] }];
}

/** `column >= value` / `column < value` (a half-open range); nothing when absent. */
export function atLeast(column: string, value: Date | number | null | undefined): LeanCondition[] {
  return value === null || value === undefined ? [] : [{ sql: `${quote(column)} >= ?`, params: [value] }];
}

export function below(column: string, value: Date | number | null | undefined): LeanCondition[] {
  return value === null || value === undefined ? [] : [{ sql: `${quote(column)} < ?`, params: [value] }];
}

export function atMost(column: string, value: number | null | undefined): LeanCondition[] {
  return value === null || value === undefined ? [] : [{ sql: `${quote(column)} <= ?`, params: [value] }];
}

export const MAX_SEARCH_LENGTH = 200;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * Part of any of `columns`, case-insensitively; nothing for an absent or blank term; 400 naming `field`
 * for a term over MAX_SEARCH_LENGTH characters.
 */
export function containsText(
  field: string,
  columns: string[],
  term: string | null | undefined,
): LeanCondition[] {
  const text = term?.trim() ?? '';
  if (text === '') return [];
  if (text.length > MAX_SEARCH_LENGTH)
    throw InvalidRequestError.field(field, `must be at most ${MAX_SEARCH_LENGTH} characters long`);
  const pattern = `%${escapeLike(text)}%`;
  return [
    {
      sql: columns.map((column) => `${quote(column)} ilike ?`).join(' or '),
      params: columns.map(() => pattern),
    },
  ];
}
