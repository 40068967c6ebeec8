/**
 * One real PostgreSQL per test run (embedded, on its own port and folder), with a template database
 * that already holds every migration. Each test file clones the template (CREATE DATABASE ... TEMPLATE),
 * which takes milliseconds and keeps files independent of each other.
 *
 * Jest loads global setup with Node's own ESM loader (no ts-jest, no path mapping), so this file is
 * plain JavaScript over the compiled code in dist/ (`npm test` builds first).
 */
import 'reflect-metadata';
import { accessSync, constants, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connectionUrl, startEmbeddedPostgres } from '../dist/src/db/embedded-postgres.js';
import { openOrm } from '../dist/src/db/orm.js';
import { logPoolErrors, migrateSchema } from '../dist/src/db/prepare.js';
import { DEFAULT_APP_DATABASE_ROLE } from '../dist/src/core/db-session.js';
import { trustTestCertificates } from './graph-fake/certificates.mjs';

export const TEMPLATE_DATABASE = 'msp_test_template';

/**
 * Where the run's cluster lives: in memory (/dev/shm, a tmpfs) when the machine has one. Every test file clones
 * the template (about 14 MB, 300 files), so a full run writes some 2 GB that nobody reads afterwards; on disk the
 * writes competed with the tests and deleting the folder at the end took 10 to 35 s of `npm test`. TEST_DATA_DIR
 * chooses another parent folder; without a tmpfs it is .data/ as before.
 */
function dataDirParent() {
  if (process.env.TEST_DATA_DIR) return path.resolve(process.env.TEST_DATA_DIR);
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return path.resolve('.data');
  }
}

export default async function globalSetup() {
  const dataDir = path.join(dataDirParent(), `msp-test-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  // Node's on-disk compile cache for every process the tests start (CLI runs, server processes, jest's own
  // workers): each of them loads the compiled app (dist/) again, and a warm cache saves about a third of that.
  process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), 'msp-test-node-compile-cache');
  // The HTTPS Graph fake's certificate authority, trusted by Jest's workers and every process they start
  // (NODE_EXTRA_CA_CERTS is read at a process's start: set here, before the workers exist).
  const tlsDir = `${dataDir}-graph-fake-tls`;
  try {
    trustTestCertificates(tlsDir);
  } catch (error) {
    // Only the Graph fake's tests need it; they fail naming GRAPH_FAKE_CERT_DIR, the rest of the run goes on.
    process.stderr.write(`The Graph fake's certificate could not be made with openssl: ${error.message}\n`);
  }
  const port = 55000 + (process.pid % 5000);
  const database = await startEmbeddedPostgres({ dataDir, port, database: TEMPLATE_DATABASE, fast: true });
  const orm = await openOrm({ databaseUrl: database.url });
  const pool = logPoolErrors(new pg.Pool({ connectionString: database.url }), () => undefined);
  // Policies and grants are per database, so every clone of the template has them (the role is per server).
  await migrateSchema(orm, pool, DEFAULT_APP_DATABASE_ROLE);
  await Promise.all([orm.close(), pool.end()]);

  // Loading the ORM's entities here put type-graphql's and class-validator's metadata stores on this process's
  // global; Jest copies that global into every test file it runs in this process (--runInBand, or a single
  // file), so each file's decorators would add to one shared store: the schema build slows down file by file
  // and every file stays reachable from it. The test files build their own. The stores are kept aside for this
  // process's shared server (test/environment.mjs), whose modules from dist/ are the ones loaded here when the
  // tests run in band, their decorators already run into these stores.
  globalThis[Symbol.for('msp-tests.dist-metadata')] = {
    TypeGraphQLMetadataStorage: globalThis.TypeGraphQLMetadataStorage,
    classValidatorMetadataStorage: globalThis.classValidatorMetadataStorage,
  };
  delete globalThis.TypeGraphQLMetadataStorage;
  delete globalThis.classValidatorMetadataStorage;

  process.env.TEST_DATABASE_ADMIN_URL = connectionUrl(port, 'postgres');
  process.env.TEST_TEMPLATE_DATABASE = TEMPLATE_DATABASE;
  // Jest shares globals (not modules) between global setup and teardown.
  globalThis.__stopTestDatabase = async () => {
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(tlsDir, { recursive: true, force: true });
  };
}
