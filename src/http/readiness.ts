import type { Request, Response } from 'express';
import type pg from 'pg';

/** The probe's own bound: an orchestrator hears "not ready" within 2 s however the database hangs. */
export const READINESS_TIMEOUT_MS = 1_500;

/**
 * GET /health/ready: 200 when this process serves (started, database answering), else 503 with
 * Retry-After. Anyone may call it, so the reason is a fixed phrase: never the database's host, port or
 * the driver's message (those go to the log of whoever operates the server). A database that does not
 * answer `select 1` within READINESS_TIMEOUT_MS (frozen, unreachable, pool exhausted) is unreachable.
 */
export function readinessHandler(pool: pg.Pool, isReady: () => boolean) {
  return async (_req: Request, res: Response): Promise<void> => {
    const unavailable = (reason: string) =>
      res.status(503).setHeader('Retry-After', '5').json({ status: 'unavailable', reason });
    if (!isReady()) return void unavailable('starting or stopping');
    let timer: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      pool.query('select 1').then(
        () => true,
        () => false,
      ),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    if (!answered) return void unavailable('database unreachable');
    res.json({ status: 'ready' });
  };
}
