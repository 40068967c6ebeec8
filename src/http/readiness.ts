import type { Request, Response } from 'express';
import type pg from 'pg';

/**
 * GET /health/ready: 200 when this process serves (started, database answering), else 503 with
 * Retry-After. Anyone may call it, so the reason is a fixed phrase: never the database's host, port or
 * the driver's message (those go to the log of whoever operates the server).
 */
export function readinessHandler(pool: pg.Pool, isReady: () => boolean) {
  return async (_req: Request, res: Response): Promise<void> => {
    const unavailable = (reason: string) =>
      res.status(503).setHeader('Retry-After', '5').json({ status: 'unavailable', reason });
    if (!isReady()) return void unavailable('starting or stopping');
    try {
      await pool.query('select 1');
    } catch {
      return void unavailable('database unreachable');
    }
    res.json({ status: 'ready' });
  };
}
