import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { messageLocale, type ServerUser } from './postgres-process.js';

/** How initdb and postgres are spawned: as the server's OS user when we are root, stderr captured. */
export function serverSpawnOptions(user: ServerUser | null) {
  return {
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    env: { ...process.env, LC_MESSAGES: messageLocale() },
    stdio: ['ignore', 'ignore', 'pipe'] as ['ignore', 'ignore', 'pipe'],
  };
}

export interface InitialiseOptions {
  initdb: string;
  clusterDir: string;
  dataDir: string;
  user: ServerUser | null;
  superuser: string;
  password: string;
}

/**
 * Creates the cluster. A folder without PG_VERSION is an initdb that never finished: nothing in it to
 * keep. The superuser password reaches initdb through a 0600 file owned by the server's user inside
 * DATA_DIR (never the shared temp folder), removed whatever happens.
 */
export async function initialiseCluster(options: InitialiseOptions): Promise<void> {
  const { clusterDir, user } = options;
  rmSync(clusterDir, { recursive: true, force: true });
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  if (user) chownSync(clusterDir, user.uid, user.gid);
  const passwordFile = path.join(options.dataDir, `.initdb-pw-${randomBytes(6).toString('hex')}`);
  writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600, flag: 'wx' });
  try {
    if (user) chownSync(passwordFile, user.uid, user.gid);
    await runToEnd(
      options.initdb,
      [
        `--pgdata=${clusterDir}`,
        '--auth=password',
        `--username=${options.superuser}`,
        `--pwfile=${passwordFile}`,
        `--lc-messages=${messageLocale()}`,
      ],
      user,
    );
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

function runToEnd(command: string, args: string[], user: ServerUser | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, serverSpawnOptions(user));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error) => reject(new Error(`${path.basename(command)} failed: ${error.message}`)));
    child.once('close', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(command)} failed (${code ?? signal}): ${stderr.trim()}`)),
    );
  });
}
