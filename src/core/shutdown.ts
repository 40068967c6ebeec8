/**
 * A clean stop in named steps within one time budget: each step gets what is left of it, a step that
 * does not finish in time is logged with its name and skipped (the usual cause: the database is already
 * gone and a driver waits on it), and the caller exits with 1 if any step was cut short.
 */
export interface ShutdownStep {
  name: string;
  run: () => Promise<unknown>;
}

export interface ShutdownLog {
  info(message: string): void;
  warn(message: string): void;
}

export async function shutdownInSteps(
  steps: ShutdownStep[],
  budgetMs: number,
  log: ShutdownLog,
): Promise<boolean> {
  const started = Date.now();
  let clean = true;
  for (const step of steps) {
    const left = Math.max(0, budgetMs - (Date.now() - started));
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      step.run().then(
        () => 'done' as const,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left))),
    ]);
    clearTimeout(timer);
    if (outcome === 'done') continue;
    clean = false;
    log.warn(
      outcome === 'timeout'
        ? `Stopping: "${step.name}" did not finish within the ${budgetMs} ms shutdown budget ` +
            `(SHUTDOWN_TIMEOUT_MS); skipped. Usually the database is unreachable and its driver is waiting.`
        : `Stopping: "${step.name}" failed (${outcome}); continuing`,
    );
  }
  log.info(`Stopped in ${Date.now() - started} ms${clean ? '' : ' (some steps were cut short)'}`);
  return clean;
}
