/**
 * One real PostgreSQL per test run (embedded, on its own port and folder), with a template database
 * that already holds every migration. Each test file clones the template (CREATE DATABASE ... TEMPLATE),
 * which takes milliseconds and keeps files independent of each other.
 *
 * Jest loads global setup with Node's own ESM loader (no ts-jest, no path mapping), so this file is
 * plain JavaScript over the compiled code in dist/ (`npm test` builds first).
 */
import 'reflect-metadata';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { runMigrations } from 'graphile-worker';
import pg from 'pg';
import { connectionUrl, startEmbeddedPostgres } from '../dist/src/db/embedded-postgres.js';
import { migrate, openOrm } from '../dist/src/db/orm.js';
import { DEFAULT_APP_DATABASE_ROLE } from '../dist/src/core/db-session.js';
import { applyRowLevelSecurity } from '../dist/src/db/row-level-security.js';

export const TEMPLATE_DATABASE = 'msp_test_template';

export default async function globalSetup() {
  const dataDir = path.resolve('.data', `test-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const port = 55000 + (process.pid % 5000);
  const database = await startEmbeddedPostgres({ dataDir, port, database: TEMPLATE_DATABASE, fast: true });
  const orm = await openOrm({ databaseUrl: database.url });
  await migrate(orm);
  await orm.close();
  const pool = new pg.Pool({ connectionString: database.url });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  await runMigrations({ pgPool: pool });
  // Policies and grants are per database, so every clone of the template has them (the role is per server).
  await applyRowLevelSecurity(pool, DEFAULT_APP_DATABASE_ROLE);
  await pool.end();

  process.env.TEST_DATABASE_ADMIN_URL = connectionUrl(port, 'postgres');
  process.env.TEST_TEMPLATE_DATABASE = TEMPLATE_DATABASE;
  // Jest shares globals (not modules) between global setup and teardown.
  globalThis.__stopTestDatabase = async () => {
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
