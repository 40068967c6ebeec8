/**
 * The floor the product is measured against: bare `node:http` and a `pg` Pool serving bench/raw-users.ts's
 * page, the least any Node server can do for this request. Run by the bench as a child process.
 *
 * Env: PORT and those of bench/raw-users.ts.
 */
import http from 'node:http';
import { intParam, pool, requiredEnv, usersPage } from './raw-users.js';

const USERS_PATH = /^\/v1\/tenants\/([^/]+)\/users$/;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://raw');
  if (url.pathname === '/health/ready') return send(res, 200, { status: 'ready' });
  const match = req.method === 'GET' ? USERS_PATH.exec(url.pathname) : null;
  if (!match) return send(res, 404, { success: false });
  usersPage(
    decodeURIComponent(match[1]),
    intParam(url.searchParams.get('page') ?? undefined, 1),
    intParam(url.searchParams.get('limit') ?? undefined, 25),
  ).then(
    (body) => send(res, 200, body),
    (error: unknown) => send(res, 500, { success: false, error: String(error) }),
  );
});
server.listen(Number(requiredEnv('PORT')), '127.0.0.1');

function stop(): void {
  server.close(() => {
    void pool.end().then(() => process.exit(0));
  });
  server.closeAllConnections();
}
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
