/**
 * Issue #9 item 10 (docs/reliability.md): as root, PostgreSQL runs as the OS user `postgres`. A data
 * folder inside a 0700 folder (`mktemp -d`, /root) is out of its reach: the server says so in one line
 * and exits 1, instead of crashing on `spawn initdb EACCES`; no password file is left readable anywhere.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { freePort } from '../helpers/server-process.js';
import { FaultServer } from './fault-server.js';

const asRoot = process.getuid?.() === 0 ? it : it.skip;
let closed: string;
const passwordFiles = () => readdirSync(os.tmpdir()).filter((name) => name.startsWith('pg-password-'));
let before: string[];

beforeAll(() => {
  closed = mkdtempSync(path.join(os.tmpdir(), 'msp-closed-')); // mode 0700, owned by root
  before = passwordFiles();
});
afterAll(() => rmSync(closed, { recursive: true, force: true }));

describe('[fault] embedded PostgreSQL as root in a closed folder', () => {
  asRoot('refuses with the reason and what to do, before running initdb', async () => {
    const dataDir = path.join(closed, '.data');
    await expect(
      startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'x', fast: true }),
    ).rejects.toThrow(
      /OS user "postgres", which cannot reach the data folder .* because the folder .*msp-closed-.* is closed to it \(mode 700\)/,
    );
    expect(readdirSync(dataDir).filter((name) => name.includes('pw'))).toEqual([]);
    expect(passwordFiles()).toEqual(before);
  });

  asRoot(
    '`npm start` exits 1 with one line saying why, no stack trace',
    async () => {
      const server = await FaultServer.start(
        { DATABASE_URL: undefined, DATA_DIR: path.join(closed, 'server-data') },
        { waitReady: false },
      );
      expect(await server.exited()).toBe(1);
      expect(server.output).toContain('Cannot start: The embedded PostgreSQL cannot start: running as root');
      expect(server.output).toContain('DATABASE_URL');
      expect(server.output).not.toMatch(/EACCES|\n\s+at /);
    },
    60_000,
  );
});
