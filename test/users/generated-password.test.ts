/**
 * Issue #33 item 7: generated passwords are handed over as CSV (`users import` prints them). They never start
 * with a symbol (a spreadsheet runs a cell starting with = + - @ as a formula), and the CSV written with
 * csv-stringify reads back exactly, commas and quotes included.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { isFormulaCell } from '../../src/core/csv-formula.js';
import { generatePassword, passwordProblems } from '../../src/users/password.js';

describe('generated passwords', () => {
  const rules = { minLength: 8, requireComplexity: true };
  const passwords = Array.from({ length: 3000 }, () => generatePassword(rules));

  it('meet the policy and never start with a symbol', () => {
    for (const password of passwords) {
      expect(passwordProblems(password, rules)).toEqual([]);
      expect(password[0]).toMatch(/[A-Za-z0-9]/);
      expect(isFormulaCell(password)).toBe(false);
    }
  });

  it('survive a CSV round trip, commas and quotes included', () => {
    const rows = [...passwords.slice(0, 200), 'a,b"c', 'x\ny'].map((password, i) => [
      `u${i}@x.example`,
      password,
    ]);
    expect(parse(stringify(rows))).toEqual(rows);
  });
});
