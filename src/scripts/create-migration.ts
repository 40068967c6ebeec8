/**
 * Writes a new migration to src/db/migrations from the difference between the entities and the
 * schema the existing migrations build. Runs on a throw-away embedded PostgreSQL, so it needs no
 * database of yours. Add the new class to src/db/migrations/index.ts afterwards.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../db/embedded-postgres.js';
import { migrate, openOrm } from '../db/orm.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'msp-migration-'));
const database = await startEmbeddedPostgres({
  dataDir,
  port: 54400 + (process.pid % 500),
  database: 'migrate',
  fast: true,
});
try {
  const orm = await openOrm({ databaseUrl: database.url });
  await migrate(orm);
  orm.config.get('migrations').emit = 'ts';
  const result = await orm.migrator.create(path.resolve('src/db/migrations'), false, false, process.argv[2]);
  console.log(result.diff.up.length ? `Wrote ${result.fileName}` : 'No changes: no migration written');
  await orm.close();
} finally {
  await database.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
