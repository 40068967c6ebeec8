import { invalid } from '../core/errors.js';
import { parse } from 'csv-parse/sync';
import { FORMULA_CELL_PROBLEM, isFormulaCell } from '../core/csv-formula.js';
import type { FieldProblem } from '../core/errors.js';
import type { ContactFields } from './contact.validation.js';

/** SPEC 2.6 "Contact CSV columns (bulk import)", each with the contact field it fills. */
export const CSV_COLUMNS = {
  DisplayName: 'displayName',
  EmailAddress: 'email',
  FirstName: 'firstName',
  LastName: 'lastName',
  Company: 'company',
  JobTitle: 'jobTitle',
  BusinessPhone: 'businessPhone',
} as const;
type Column = keyof typeof CSV_COLUMNS;
const REQUIRED_COLUMNS: Column[] = ['DisplayName', 'EmailAddress', 'FirstName', 'LastName'];
const COLUMN_OF_FIELD = new Map<string, string>(
  Object.entries(CSV_COLUMNS).map(([column, field]) => [field, column]),
);

/** DECISIONS "Request bodies ... CSV uploads: 10 MiB"; at most this many data rows per file. */
export const MAX_CSV_BYTES = 10 * 1024 * 1024;
export const MAX_CSV_ROWS = 1000;

export interface CsvContactRow {
  /** The line of the file the row starts on; the header is line 1. */
  line: number;
  fields: ContactFields;
  /** Cells refused whatever their column's rules: those a spreadsheet would run as a formula (core/csv-formula.ts). */
  problems: FieldProblem[];
}

function formulaProblems(columns: readonly Column[], record: readonly string[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  columns.forEach((column, index) => {
    const kind = column === 'BusinessPhone' ? 'phone' : 'text';
    if (isFormulaCell(record[index] ?? '', kind))
      problems.push({ field: column, problem: FORMULA_CELL_PROBLEM });
  });
  return problems;
}

/** A contact field named as the CSV names it (EmailAddress for email). */
export const csvNameOf = (field: string): string => COLUMN_OF_FIELD.get(field) ?? field;

const csvProblem = (problem: string) => invalid([{ field: 'csv', problem }]);

function lineBreaks(text: string): { breaks: number; crlf: number } {
  return { breaks: (text.match(/\r\n|\r|\n/g) ?? []).length, crlf: (text.match(/\r\n/g) ?? []).length };
}

/**
 * Reads a contacts CSV (RFC 4180: quoted fields, "" escapes, CRLF or LF, an optional UTF-8 BOM; blank lines
 * are skipped). The header row is required; its names are matched case-insensitively against the SPEC
 * columns. A malformed file, an unknown, repeated or missing required column, no data row or more than
 * MAX_CSV_ROWS rows: 400 naming `csv` or the column. Formula-like cells are returned as each row's
 * problems; the other row checks come later (checkContact).
 */
export function readContactsCsv(csv: string): CsvContactRow[] {
  if (Buffer.byteLength(csv, 'utf8') > MAX_CSV_BYTES) {
    throw csvProblem(`must be at most ${MAX_CSV_BYTES} bytes`);
  }
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(csv, { bom: true, info: true, skip_empty_lines: true }) as unknown as typeof records;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw csvProblem(`is not valid CSV: ${message}`);
  }
  if (records.length === 0) throw csvProblem('is empty: a header row is required');
  const [header, ...data] = records;
  const columns: Array<Column> = [];
  const problems: FieldProblem[] = [];
  const byName = new Map(Object.keys(CSV_COLUMNS).map((column) => [column.toLowerCase(), column as Column]));
  header.record.forEach((raw, index) => {
    const name = raw.trim();
    const column = byName.get(name.toLowerCase());
    if (!column) {
      problems.push({
        field: name || `column ${index + 1}`,
        problem: `is not a known column (known: ${Object.keys(CSV_COLUMNS).join(', ')})`,
      });
    } else if (columns.includes(column)) {
      problems.push({ field: column, problem: 'is given twice in the header row' });
    }
    columns.push(column ?? ('' as Column));
  });
  for (const column of REQUIRED_COLUMNS) {
    if (!columns.includes(column)) problems.push({ field: column, problem: 'is a required column' });
  }
  if (problems.length > 0) throw invalid(problems);
  if (data.length === 0) throw csvProblem('has no contact rows after the header row');
  if (data.length > MAX_CSV_ROWS) {
    throw csvProblem(`has ${data.length} contact rows: at most ${MAX_CSV_ROWS} per file`);
  }

  // csv-parse counts a CRLF inside a quoted field as two lines: keep the true line of each row.
  let extraLines = 0;
  return data.map(({ record, info }) => {
    const breaks = record.map(lineBreaks);
    extraLines += breaks.reduce((sum, b) => sum + b.crlf, 0);
    const line = info.lines - extraLines - breaks.reduce((sum, b) => sum + b.breaks, 0);
    const fields: Record<string, string> = {};
    columns.forEach((column, index) => {
      fields[CSV_COLUMNS[column]] = record[index] ?? '';
    });
    return { line, fields, problems: formulaProblems(columns, record) };
  });
}
