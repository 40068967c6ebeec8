/**
 * bench/ab-run.ts's BENCH_AB_TIMELINE=1: bench/latency-probe.ts loaded into the servers under test, and
 * PostgreSQL's own CPU per pass (issue #31: where a request waits when the server's CPU is not the limit).
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildServer } from './children.js';

const enabled = process.env.BENCH_AB_TIMELINE === '1';
const probed = new Set<number>();
const probeFile = (pid: number) => path.join(os.tmpdir(), `latency-probe-${pid}.json`);

/** Node arguments loading the probe (none unless BENCH_AB_TIMELINE=1). */
export function probeArgs(dist: string): string[] {
  return enabled ? ['--import', path.join(dist, 'bench', 'latency-probe.js')] : [];
}

/** Starts the probe's window, or ends it (the second call); servers started without it are left alone. */
export function startProbe(server: ChildServer): void {
  if (!enabled || !isProbed(server)) return;
  process.kill(server.pid, 'SIGUSR2');
}

function isProbed(server: ChildServer): boolean {
  if (probed.has(server.pid)) return true;
  try {
    const command = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8');
    if (command.includes('latency-probe.js')) probed.add(server.pid);
  } catch {
    // gone
  }
  return probed.has(server.pid);
}

/** The probe's summary of the window just ended, as one line, or null without a probe. */
export async function readProbe(server: ChildServer): Promise<string | null> {
  if (!enabled || !isProbed(server)) return null;
  const file = probeFile(server.pid);
  for (let attempt = 0; attempt < 50 && !existsSync(file); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  if (!existsSync(file)) return 'no summary written';
  await new Promise((resolve) => setTimeout(resolve, 50));
  const text = readFileSync(file, 'utf8');
  rmSync(file, { force: true });
  return text;
}

/** utime + stime (+ cutime + cstime: children already waited for) of /proc/<pid>/stat, in ms; and the parent. */
function statOf(pid: string, withChildren: boolean): { cpuMs: number; parent: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = fields.slice(11, withChildren ? 15 : 13).reduce((sum, field) => sum + Number(field), 0);
    return { cpuMs: ticks * 10, parent: Number(fields[1]) };
  } catch {
    return null; // exited meanwhile
  }
}

/**
 * CPU time so far of the bench cluster's PostgreSQL: the postmaster's, its exited children's (a backend whose
 * connection closed) and its live children's, in ms.
 */
export function postgresCpuMs(dataDir: string): number {
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return NaN;
  }
  let total = statOf(String(postmaster), true)?.cpuMs ?? NaN;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry, false);
    if (stat?.parent === postmaster) total += stat.cpuMs;
  }
  return total;
}
