import { invalid } from '../core/errors.js';
import { parse } from 'csv-parse/sync';
import { validate } from '../core/perf/class-validator-rules.js';
import { FORMULA_CELL_PROBLEM, isFormulaCell } from '../core/csv-formula.js';
import type { FieldProblem } from '../core/errors.js';
import { CreateUserInput } from '../users/user.types.js';

/**
 * The columns of a user import file (docs/user-management.md, docs/examples/users-import.csv), each with
 * the CreateUserInput field it fills. Names are matched case-insensitively; only the first three are required.
 */
export const USER_CSV_COLUMNS = {
  UserPrincipalName: 'userPrincipalName',
  FirstName: 'firstName',
  LastName: 'lastName',
  DisplayName: 'displayName',
  Password: 'password',
  JobTitle: 'jobTitle',
  Department: 'department',
  CompanyName: 'companyName',
  OfficeLocation: 'officeLocation',
  BusinessPhone: 'businessPhone',
  MobilePhone: 'mobilePhone',
  EmployeeId: 'employeeId',
  EmployeeType: 'employeeType',
  UsageLocation: 'usageLocation',
} as const;
type Column = keyof typeof USER_CSV_COLUMNS;
const REQUIRED: Column[] = ['UserPrincipalName', 'FirstName', 'LastName'];
const COLUMN_OF_FIELD = new Map<string, string>(Object.entries(USER_CSV_COLUMNS).map(([c, f]) => [f, c]));

/** DECISIONS: CSV uploads up to 10 MiB; at most this many users per file. */
export const MAX_USER_CSV_BYTES = 10 * 1024 * 1024;
export const MAX_USER_CSV_ROWS = 10_000;

/** A problem of one cell (or row) of the file: `field` is the column, `line` the file line. */
export type RowProblem = FieldProblem & { line: number };

export interface CsvUserRow {
  line: number;
  input: CreateUserInput;
}

/**
 * Formula-like cells are refused (core/csv-formula.ts), except in Password, which is never stored in the
 * clear nor exported, and where `-`, `+`, `=` or `@` are fair first characters.
 */
function columnKind(column: Column): 'text' | 'phone' | 'secret' {
  if (column === 'Password') return 'secret';
  return column === 'BusinessPhone' || column === 'MobilePhone' ? 'phone' : 'text';
}

const fileProblem = (problem: string) => invalid([{ field: 'csv', problem }]);

function lineBreaks(text: string): { breaks: number; crlf: number } {
  return { breaks: (text.match(/\r\n|\r|\n/g) ?? []).length, crlf: (text.match(/\r\n/g) ?? []).length };
}

/** The header's columns in file order; a bad header is a 400 naming the columns. */
function readHeader(header: string[]): Column[] {
  const byName = new Map(Object.keys(USER_CSV_COLUMNS).map((c) => [c.toLowerCase(), c as Column]));
  const columns: Column[] = [];
  const problems: FieldProblem[] = [];
  header.forEach((raw, index) => {
    const name = raw.trim();
    const column = byName.get(name.toLowerCase());
    if (!column) {
      problems.push({
        field: name || `column ${index + 1}`,
        problem: `is not a known column (known: ${Object.keys(USER_CSV_COLUMNS).join(', ')})`,
      });
    } else if (columns.includes(column)) {
      problems.push({ field: column, problem: 'is given twice in the header row' });
    }
    columns.push(column ?? ('' as Column));
  });
  for (const column of REQUIRED) {
    if (!columns.includes(column)) problems.push({ field: column, problem: 'is a required column' });
  }
  if (problems.length > 0) throw invalid(problems);
  return columns;
}

/**
 * Reads and checks a user import file (RFC 4180, optional BOM, CRLF or LF, blank lines skipped). File-level
 * problems (size, syntax, header, no rows, too many rows) are thrown as a 400; the cells the input rules
 * refuse are returned as problems with their line and column, for the caller to add the tenant's rules
 * (domains, password policy, UPNs taken) and refuse the file with `rowProblemsError`.
 */
export async function readUsersCsv(csv: string): Promise<{ rows: CsvUserRow[]; problems: RowProblem[] }> {
  if (Buffer.byteLength(csv, 'utf8') > MAX_USER_CSV_BYTES) {
    throw fileProblem(`must be at most ${MAX_USER_CSV_BYTES} bytes`);
  }
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(csv, { bom: true, info: true, skip_empty_lines: true }) as unknown as typeof records;
  } catch (error) {
    throw fileProblem(`is not valid CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (records.length === 0) throw fileProblem('is empty: a header row is required');
  const [header, ...data] = records;
  const columns = readHeader(header.record);
  if (data.length === 0) throw fileProblem('has no user rows after the header row');
  if (data.length > MAX_USER_CSV_ROWS) {
    throw fileProblem(`has ${data.length} user rows: at most ${MAX_USER_CSV_ROWS} per file`);
  }
  let extraLines = 0; // csv-parse counts a CRLF inside a quoted field as two lines
  const rows: CsvUserRow[] = [];
  const problems: RowProblem[] = [];
  for (const { record, info } of data) {
    const breaks = record.map(lineBreaks);
    extraLines += breaks.reduce((sum, b) => sum + b.crlf, 0);
    const line = info.lines - extraLines - breaks.reduce((sum, b) => sum + b.breaks, 0);
    const input = new CreateUserInput();
    const target = input as unknown as Record<string, string | undefined>;
    columns.forEach((column, index) => {
      const kind = columnKind(column);
      if (kind !== 'secret' && isFormulaCell(record[index] ?? '', kind))
        problems.push({ line, field: column, problem: FORMULA_CELL_PROBLEM });
      const value = record[index]?.trim() ?? '';
      // An empty optional cell means "not given"; an empty required one is refused by the rules below.
      if (value !== '' || REQUIRED.includes(column)) target[USER_CSV_COLUMNS[column]] = value;
    });
    for (const error of await validate(input, { forbidUnknownValues: false })) {
      for (const problem of Object.values(error.constraints ?? {})) {
        problems.push({
          line,
          field: csvColumnOf(error.property),
          problem: problem.replace(new RegExp(`^${error.property} `), ''),
        });
      }
    }
    rows.push({ line, input });
  }
  return { rows, problems };
}

export const csvColumnOf = (field: string): string => COLUMN_OF_FIELD.get(field) ?? field;

/** One 400 for every row problem, in file order: details.fields [{line, field (the column), problem}]. */
export function rowProblemsError(problems: RowProblem[]) {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const error = invalid(sorted);
  const shown = sorted.slice(0, 5).map((p) => `line ${p.line} ${p.field}: ${p.problem}`);
  error.message = `The file has ${sorted.length} problem(s); nothing was imported: ${shown.join('; ')}${sorted.length > 5 ? '; ...' : ''}`;
  return error;
}
