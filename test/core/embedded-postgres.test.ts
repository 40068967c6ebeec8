import { rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { freePort } from '../helpers/server-process.js';

describe('embedded PostgreSQL', () => {
  const dataDir = path.resolve('.data', `embedded-test-${process.pid}`);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('joins a server already running on the data folder instead of starting a second one', async () => {
    const first = await startEmbeddedPostgres({
      dataDir,
      port: await freePort(),
      database: 'first',
      fast: true,
    });
    try {
      expect(first.startedHere).toBe(true);
      // A second process (the CLI while the server runs) asks for another port: it must reuse the first server.
      const second = await startEmbeddedPostgres({
        dataDir,
        port: await freePort(),
        database: 'second',
        fast: true,
      });
      expect(second.startedHere).toBe(false);
      expect(new URL(second.url).port).toBe(new URL(first.url).port);
      const client = new pg.Client({ connectionString: second.url });
      await client.connect();
      const { rows } = await client.query<{ db: string }>('select current_database() as db');
      await client.end();
      expect(rows[0].db).toBe('second');
      await second.stop(); // leaves the first process's server running
      const again = new pg.Client({ connectionString: first.url });
      await again.connect();
      await again.end();
    } finally {
      await first.stop();
    }
  }, 60_000);
});
