/**
 * Counts the SQL statements MikroORM sends, so tests can prove a list costs the same number
 * of statements whatever its page size (no N+1).
 */
export class SqlCounter {
  private statements: string[] = [];
  /** Row-level security settings applied to a reserved connection (core/db-session.ts), counted apart. */
  sessionSettings = 0;

  record(message: string): void {
    if (message.startsWith('[session]')) {
      this.sessionSettings++;
      return;
    }
    // The API key cache refills (and the throttled lastUsedAt write) depend on wall time, not on the
    // request: under a loaded machine they land in one measured window and not the other. Not counted.
    if (/from api_keys k|update api_keys set last_used_at/.test(message)) return;
    // MikroORM logs each statement as "[query] <sql> [took N ms, M results]".
    if (message.includes('[query]') || /^\s*(select|insert|update|delete|with|begin|commit)/i.test(message)) {
      this.statements.push(message);
    }
  }

  reset(): void {
    this.statements = [];
    this.sessionSettings = 0;
  }

  get count(): number {
    return this.statements.length;
  }

  /** Counts the statements run by `action`. */
  async during(action: () => Promise<unknown>): Promise<number> {
    this.reset();
    await action();
    return this.count;
  }

  get log(): readonly string[] {
    return this.statements;
  }
}
