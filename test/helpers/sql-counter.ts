import { QueryLog } from '../../src/db/query-log.js';

/**
 * Counts the SQL statements MikroORM sends, so tests can prove a list costs the same number of statements
 * whatever its page size (no N+1). The recorder is the benchmark's too (src/db/query-log.ts).
 */
export class SqlCounter extends QueryLog {
  constructor() {
    // The API key cache refills (and the throttled lastUsedAt write) depend on wall time, not on the
    // request: under a loaded machine they land in one measured window and not the other. Not counted.
    super({ ignored: /from api_keys k|update api_keys set last_used_at/, always: true });
  }

  get count(): number {
    return this.log.length;
  }

  /** Counts the statements run by `action`. */
  async during(action: () => Promise<unknown>): Promise<number> {
    return (await this.statementsDuring(action)).length;
  }
}
