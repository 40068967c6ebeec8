import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The parts of a V8 .cpuprofile (node --cpu-prof) this summary reads. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileEntry {
  name: string;
  selfMs: number;
  percent: number;
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  /** Self time by package (node_modules/<name>), by our folder (src/…, rest-adapter), or by V8/Node internals. */
  byModule: ProfileEntry[];
  byFunction: ProfileEntry[];
}

const IDLE = new Set(['(idle)', '(program)']);

function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1];
  if (url.startsWith('node:')) return 'node internals';
  const ours = /\/dist\/((?:src|rest-adapter)\/[^/]+)/.exec(url);
  return ours ? ours[1] : url;
}

function shortUrl(url: string): string {
  const packageMatch = /node_modules\/(.*)$/.exec(url);
  if (packageMatch) return packageMatch[1];
  const distMatch = /\/dist\/(.*)$/.exec(url);
  return distMatch ? distMatch[1] : url;
}

function top(selfByName: Map<string, number>, totalMs: number, count: number): ProfileEntry[] {
  return [...selfByName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, selfMs]) => ({
      name,
      selfMs: Math.round(selfMs),
      percent: Math.round((selfMs / totalMs) * 1000) / 10,
    }));
}

/** Self time (busy samples only) of the newest profile in `directory`, grouped by module and by function. */
export function summariseNewestProfile(directory: string): ProfileSummary {
  const files = readdirSync(directory).filter((file) => file.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile written in ${directory}`);
  const file = path.join(directory, files.sort().at(-1)!);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byModule = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let totalMs = 0;
  profile.samples.forEach((nodeId, index) => {
    const frame = nodes.get(nodeId);
    if (!frame || IDLE.has(frame.functionName)) return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    totalMs += ms;
    const moduleName = moduleOf(frame.url, frame.functionName);
    byModule.set(moduleName, (byModule.get(moduleName) ?? 0) + ms);
    const functionName = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    byFunction.set(functionName, (byFunction.get(functionName) ?? 0) + ms);
  });
  return {
    file,
    totalMs: Math.round(totalMs),
    byModule: top(byModule, totalMs, 12),
    byFunction: top(byFunction, totalMs, 15),
  };
}

export interface GcPauses {
  /** Runs of consecutive garbage-collector samples (each run one pause, as long as its samples' time). */
  count: number;
  totalMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Pauses of 10 ms or more: each holds every request in flight for that long. */
  atLeast10Ms: number;
}

/**
 * The garbage collector's pauses seen in the last `lastMs` of a profile's samples (so not start-up): runs of
 * consecutive `(garbage collector)` samples. At `--cpu-prof-interval 250` a pause shorter than the interval may be
 * missed or merged; what matters for the p99 tail is the long ones, which this sees.
 */
export function gcPausesOf(file: string, lastMs: number): GcPauses {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const gcNodes = new Set(
    profile.nodes
      .filter((node) => node.callFrame.functionName === '(garbage collector)')
      .map((node) => node.id),
  );
  const pauses: number[] = [];
  const skipMs = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0) / 1000 - lastMs;
  let elapsedMs = 0;
  let current = 0;
  profile.samples.forEach((nodeId, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    elapsedMs += ms;
    if (gcNodes.has(nodeId)) current += ms;
    else if (current > 0) {
      if (elapsedMs > skipMs) pauses.push(current);
      current = 0;
    }
  });
  pauses.sort((a, b) => a - b);
  const at = (fraction: number) =>
    pauses[Math.min(pauses.length - 1, Math.floor(pauses.length * fraction))] ?? 0;
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    count: pauses.length,
    totalMs: round(pauses.reduce((sum, ms) => sum + ms, 0)),
    p50Ms: round(at(0.5)),
    p99Ms: round(at(0.99)),
    maxMs: round(pauses.at(-1) ?? 0),
    atLeast10Ms: pauses.filter((ms) => ms >= 10).length,
  };
}
