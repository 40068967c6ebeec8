/**
 * What the ORM's query hook (`onQuery` of openOrm, src/db/orm.ts) reports, recorded: the statements MikroORM
 * sends ("[query] <sql> [took N ms, M results]", colour codes removed) and, counted apart, the row-level
 * security settings applied to a reserved connection ("[session] …", core/db-session.ts). The one recorder
 * of the tests' SQL counter (test/helpers/sql-counter.ts) and the benchmark's per-request count
 * (bench/sql-count.ts), so both count the same thing. What crosses the wire from any pool, with round trips
 * and pipelining, is test/helpers/round-trips.ts's business (it patches pg itself, before pools connect).
 */
export class QueryLog {
  private statements: string[] = [];
  private recording = true;
  /** Row-level security settings applied to a reserved connection, counted apart from the statements. */
  sessionSettings = 0;
  /**
   * Lean reads as sent (`$n` text and values, core/lean-statement.ts), beside their `[query]` line with the
   * values inlined: not counted again; the plan tests take PostgreSQL's generic plan of them.
   */
  leanStatements: Array<{ text: string; values: unknown[]; named: boolean }> = [];

  /**
   * @param ignored statements left out of the count (a cache refill that depends on wall time, not on the
   *   request); none by default.
   * @param always whether statements are kept outside `during` too (a test's counter, reset by hand); a
   *   recorder that only keeps what `during` saw otherwise.
   */
  constructor(private readonly options: { ignored?: RegExp; always?: boolean } = {}) {
    this.recording = options.always ?? false;
  }

  /** The hook: give it every message `onQuery` receives. */
  record(message: string): void {
    if (!this.recording) return;
    if (message.startsWith('[session]')) {
      this.sessionSettings++;
      return;
    }
    const lean = message.indexOf('[lean-statement] ');
    if (lean !== -1) {
      this.leanStatements.push(
        JSON.parse(message.slice(lean + 17).replace(/\x1b\[[0-9;]*m/g, '')) as {
          text: string;
          values: unknown[];
          named: boolean;
        },
      );
      return;
    }
    if (this.options.ignored?.test(message)) return;
    if (message.includes('[query]') || /^\s*(select|insert|update|delete|with|begin|commit)/i.test(message))
      this.statements.push(message.replace(/\x1b\[[0-9;]*m/g, '')); // the logger colours its output
  }

  reset(): void {
    this.statements = [];
    this.sessionSettings = 0;
    this.leanStatements = [];
  }

  /** The statements recorded since the last reset. */
  get log(): readonly string[] {
    return this.statements;
  }

  /** The statements `action` caused (recorded from a reset, whatever else was kept before). */
  async statementsDuring(action: () => Promise<unknown>): Promise<string[]> {
    this.reset();
    const before = this.recording;
    this.recording = true;
    try {
      await action();
      return [...this.statements];
    } finally {
      this.recording = before;
    }
  }
}
