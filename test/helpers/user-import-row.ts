import type pg from 'pg';

export interface UserImportRow {
  status: string;
  processed_rows: number;
  created_rows: number;
  run_attempts: number;
}

/**
 * A user import's progress as stored (a file's own server's or the worker's shared one's pool). Here rather than
 * in test/faults/fault-kit.ts (which re-exports it) so that a file on a shared server reads it without loading
 * that kit's test-app.ts, which evaluates the whole app.
 */
export async function userImportRow(
  app: { pool: Pick<pg.Pool, 'query'> },
  id: string,
): Promise<UserImportRow> {
  const { rows } = await app.pool.query<UserImportRow>(
    'select status, processed_rows, created_rows, run_attempts from user_imports where id = $1',
    [id],
  );
  return rows[0];
}
