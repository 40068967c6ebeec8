/**
 * CSV injection (issue #9 item 8): a cell starting with one of these is a formula (or becomes one) when a
 * file holding it is opened in a spreadsheet. CSV imports refuse such cells rather than neutralise them: a
 * leading `'` would be stored, and synced upstream, as part of the value. A cell is checked as given and
 * trimmed, since imports store values trimmed (` =1+1` would be stored as `=1+1`).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** An international phone number (`+44 20 7946 0958`) starts with `+` but cannot be a formula. */
const PHONE_NUMBER = /^\+[0-9][0-9 ().-]*$/;

export const FORMULA_CELL_PROBLEM =
  'must not start with =, +, -, @, a tab or a carriage return (a spreadsheet would run it as a formula)';

/** Whether an imported cell must be refused; `phone` columns may hold `+` followed by a number. */
export function isFormulaCell(cell: string, kind: 'text' | 'phone' = 'text'): boolean {
  const trimmed = cell.trim();
  if (!FORMULA_START.test(cell) && !FORMULA_START.test(trimmed)) return false;
  return !(kind === 'phone' && PHONE_NUMBER.test(trimmed));
}
