/**
 * Worker thread of `bench/mem-run.ts`: reads /proc/<pid>/status of each server every `intervalMs` on its own
 * event loop (the bench's is busy with autocannon), and keeps, per server and per phase the driver names,
 * the highest VmRSS with its anonymous and file-backed parts at that moment.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

export interface RssPoint {
  /** KiB, from /proc/<pid>/status. */
  rss: number;
  anon: number;
  file: number;
  /** Date.now() of the sample. */
  at: number;
}

export interface SamplerReport {
  /** pid → phase → the highest sample of that phase; phases in the order they began. */
  peaks: Record<number, Array<[string, RssPoint]>>;
  /** pid → /proc/<pid>/smaps read at its highest sample (within a MiB): which mappings hold the peak. */
  smapsAtPeak: Record<number, string>;
  samples: number;
}

interface SamplerInput {
  pids: number[];
  intervalMs: number;
}

const { pids, intervalMs } = workerData as SamplerInput;
const field = (text: string, name: string) =>
  Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
let phase = 'start-up';
let samples = 0;
const peaks = new Map<number, Map<string, RssPoint>>(pids.map((pid) => [pid, new Map()]));
const smapsAtPeak = new Map<number, { rss: number; text: string }>();

function sample(): void {
  samples++;
  for (const pid of pids) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      continue; // gone
    }
    const point = {
      rss: field(status, 'VmRSS'),
      anon: field(status, 'RssAnon'),
      file: field(status, 'RssFile'),
      at: Date.now(),
    };
    const byPhase = peaks.get(pid)!;
    const best = byPhase.get(phase);
    if (!best || point.rss > best.rss) byPhase.set(phase, point);
    // A new high by more than a MiB: keep the mappings as they are now (a few ms to read; rare once grown).
    const kept = smapsAtPeak.get(pid);
    if (!kept || point.rss > kept.rss + 1024) {
      try {
        smapsAtPeak.set(pid, { rss: point.rss, text: readFileSync(`/proc/${pid}/smaps`, 'utf8') });
      } catch {
        // gone
      }
    }
  }
}

const timer = setInterval(sample, intervalMs);
sample();
parentPort!.on('message', (message: { phase?: string; stop?: true }) => {
  if (message.phase) {
    sample();
    phase = message.phase;
  }
  if (message.stop) {
    clearInterval(timer);
    sample();
    const report: SamplerReport = {
      peaks: Object.fromEntries([...peaks].map(([pid, byPhase]) => [pid, [...byPhase]])),
      smapsAtPeak: Object.fromEntries([...smapsAtPeak].map(([pid, { text }]) => [pid, text])),
      samples,
    };
    parentPort!.postMessage(report);
  }
});
