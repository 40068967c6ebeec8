/**
 * `node scripts/measure-start.mjs`: seconds from `npm start` to GET /health/ready answering 200, for a start that
 * has to build (dist/.build-stamp removed first) and for a restart (nothing changed); stops each server.
 * Uses the embedded PostgreSQL under DATA_DIR (default .data/start-measure, port 54349) unless DATABASE_URL is set.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function timeToReady(label) {
  const port = await freePort();
  const started = Date.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    detached: true, // its own process group, so stopping it stops node and npm together
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: process.env.DATA_DIR ?? path.join(root, '.data', 'start-measure'),
      EMBEDDED_PG_PORT: process.env.EMBEDDED_PG_PORT ?? '54349',
      SEED_DEMO: 'false',
      RUN_WORKER: 'false',
      LOG_LEVEL: 'warn',
    },
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${label}: npm start exited with ${child.exitCode}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/health/ready`);
        await response.arrayBuffer();
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(`${label}: ready in ${seconds.toFixed(1)} s`);
    return seconds;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

// The first start of a new data folder also creates the PostgreSQL cluster and migrates: not what we measure.
await timeToReady('warm-up (database folder created once)');
rmSync(path.join(root, 'dist', '.build-stamp'), { force: true });
await timeToReady('start that builds (incremental tsc)');
await timeToReady('restart (dist current, no build)');
