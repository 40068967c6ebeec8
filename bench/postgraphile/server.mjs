/**
 * PostGraphile 5 (Grafast) over the bench database, as a target of `npm run bench` (docs/benchmarks.md): the
 * amber preset, a pg pool of 10 like the other targets, no watch mode, no GraphiQL, no explain. Started by
 * bench/postgraphile-target.ts under Node 24 from this folder, whose own package.json keeps PostGraphile out
 * of the product's dependencies.
 *
 * Env: DATABASE_URL, PORT. GET /health/ready answers 200 once the schema is built.
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', (error) => console.error(`postgraphile pool: ${error.message}`));

const preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ pool, schemas: ['public'] })],
  grafserv: { graphqlPath: '/graphql', graphiql: false, watch: false },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
await serv.ready();
const graphql = serv.createHandler();
const server = createServer((req, res) => {
  if (req.url === '/health/ready') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"ok"}');
    return;
  }
  graphql(req, res);
});
server.listen(Number(process.env.PORT), '127.0.0.1');

const stop = () => server.close(() => void pgl.release().finally(() => pool.end()));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
