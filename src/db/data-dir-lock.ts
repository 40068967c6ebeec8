import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processAlive } from './postgres-process.js';

/** In DATA_DIR: the pid of the server process running on it (the CLI does not take it). */
export const SERVER_LOCK_FILE = 'server.pid';

/**
 * One server per data folder (issue #33 item 1): a second `npm start` on the same DATA_DIR used to join the
 * running embedded PostgreSQL without a word, then hang on the busy HTTP port or run a second server
 * nobody asked for. It now refuses, naming the running server's pid; SHARE_DATA_DIR=true is the explicit
 * way to run a second server on the same database (README "Running it"). A lock left by a process that is
 * gone (kill -9, crash) is taken over. Returns the release, also run at exit.
 */
export function claimDataDir(dataDir: string, publicUrl: string): () => void {
  const file = path.join(dataDir, SERVER_LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      // 'wx': of two servers starting at the same moment, exactly one creates the file.
      // The second line is the server's origin, which the CLI uses for its links (runningServerUrl).
      writeFileSync(file, `${process.pid}\n${publicUrl}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
    }
    const holder = Number(readFileSync(file, 'utf8').split('\n')[0]);
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processAlive(holder))
      throw new DataDirBusyError(
        `another server (pid ${holder}) is running on the data folder ${dataDir}. Stop it (kill ${holder}), ` +
          `or start an independent one: PORT=4001 DATA_DIR=.data-2 EMBEDDED_PG_PORT=54330 npm start ` +
          `(SHARE_DATA_DIR=true runs a second server on the same database instead)`,
      );
    rmSync(file, { force: true }); // the holder is gone: take the lock over
  }
  const release = () => {
    try {
      if (Number(readFileSync(file, 'utf8').split('\n')[0]) === process.pid) rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return release;
}

export class DataDirBusyError extends Error {}

/**
 * The origin of the server running on `dataDir` (its PUBLIC_URL, e.g. http://localhost:4001), or null when none
 * runs. The CLI links to the server it administers (an OAuth authorize URL, an event's actionUrl): started as
 * `PORT=4001 npm start`, the server is found here, so the CLI needs no PORT of its own (issue #33 item 5).
 */
export function runningServerUrl(dataDir: string): string | null {
  try {
    const [pid, url] = readFileSync(path.join(dataDir, SERVER_LOCK_FILE), 'utf8').split('\n');
    return url && processAlive(Number(pid)) ? url : null;
  } catch {
    return null;
  }
}
