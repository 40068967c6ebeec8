/**
 * The raw baseline returns the fields the REST users operation selects (src/users/user.rest.ts), each read from the column of the snake_cased name; `licenses` comes from
 * the license assignments instead.
 */
export const LICENSES_FIELD = 'licenses';

export function columnOf(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
