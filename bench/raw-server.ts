/**
 * The Express floor: plain Express 5 serving bench/raw-users.ts's page. Beside the bare node:http floor
 * (bench/raw-http-server.ts) it shows what Express itself costs. Run by the bench as a child process.
 *
 * Env: PORT and those of bench/raw-users.ts.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { intParam, pool, requiredEnv, usersPage } from './raw-users.js';

const app = express();
app.disable('x-powered-by');

app.get('/health/ready', (_req, res) => {
  res.json({ status: 'ready' });
});

app.get('/v1/tenants/:tenantId/users', async (req: Request, res: Response, next: NextFunction) => {
  try {
    res.json(
      await usersPage(
        String(req.params.tenantId),
        intParam(req.query.page, 1),
        intParam(req.query.limit, 25),
      ),
    );
  } catch (error) {
    next(error);
  }
});

const server = app.listen(Number(requiredEnv('PORT')), '127.0.0.1');

function stop(): void {
  server.close(() => {
    void pool.end().then(() => process.exit(0));
  });
  server.closeAllConnections();
}
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
