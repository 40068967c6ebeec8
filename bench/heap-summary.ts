/**
 * What a V8 heap snapshot holds, in the few figures goal 4's work needs (docs/benchmarks.md "eighth round,
 * memory and tail"): the live bytes (V8 collects before it writes a snapshot), by kind of object, and the
 * module sources by package (a script's source string, named by its file). `bench/mem-run.ts` prints it for
 * each server's snapshot after load (BENCH_MEM_SNAPSHOT=1); alone, `node dist/bench/heap-summary.js a.heapsnapshot
 * [b.heapsnapshot]` prints one, or two side by side with their difference (e.g. before and after a change).
 */
import { readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface HeapSummary {
  totalBytes: number;
  nodes: number;
  byType: Map<string, number>;
  /** JavaScript objects by constructor name: how many, and their own bytes. */
  objectsByName: Map<string, { count: number; bytes: number }>;
  /** Module source bytes and script count by package (`ours` for the project's dist, `node:` for Node's own). */
  sourcesByPackage: Map<string, { bytes: number; scripts: number }>;
}

/** The package a script's name (a path or a file URL) belongs to. */
function packageOf(name: string): string {
  const parts = name.split('/node_modules/');
  if (parts.length > 1) {
    const tail = parts[parts.length - 1].split('/');
    return tail[0].startsWith('@') ? `${tail[0]}/${tail[1]}` : tail[0];
  }
  if (name.includes('/dist/')) return 'ours';
  return name.startsWith('node:') ? 'node:' : '(other)';
}

export function summariseHeapSnapshot(file: string): HeapSummary {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const meta = data.snapshot.meta;
  const nodeFields = meta.node_fields.length;
  const edgeFields = meta.edge_fields.length;
  const [type, name, selfSize, edgeCount] = ['type', 'name', 'self_size', 'edge_count'].map((field) =>
    meta.node_fields.indexOf(field),
  );
  const [edgeType, edgeName, edgeTo] = ['type', 'name_or_index', 'to_node'].map((field) =>
    meta.edge_fields.indexOf(field),
  );
  const types = meta.node_types[0];
  const internal = meta.edge_types[0].indexOf('internal');
  const { nodes, edges, strings } = data;
  const summary: HeapSummary = {
    totalBytes: 0,
    nodes: 0,
    byType: new Map(),
    objectsByName: new Map(),
    sourcesByPackage: new Map(),
  };
  let edge = 0;
  for (let node = 0; node < nodes.length; node += nodeFields) {
    const kind = types[nodes[node + type]];
    const bytes = nodes[node + selfSize];
    summary.totalBytes += bytes;
    summary.nodes++;
    summary.byType.set(kind, (summary.byType.get(kind) ?? 0) + bytes);
    if (kind === 'object') {
      const entry = summary.objectsByName.get(strings[nodes[node + name]]) ?? { count: 0, bytes: 0 };
      entry.count++;
      entry.bytes += bytes;
      summary.objectsByName.set(strings[nodes[node + name]], entry);
    }
    const count = nodes[node + edgeCount];
    // A script: a `code` node named by its file, with an internal `source` edge to its source string.
    if (kind === 'code') {
      const scriptName = strings[nodes[node + name]];
      if (scriptName.includes('/'))
        for (let index = 0; index < count; index++) {
          const at = edge + index * edgeFields;
          if (edges[at + edgeType] !== internal || strings[edges[at + edgeName]] !== 'source') continue;
          const key = packageOf(scriptName);
          const entry = summary.sourcesByPackage.get(key) ?? { bytes: 0, scripts: 0 };
          entry.bytes += nodes[edges[at + edgeTo] + selfSize];
          entry.scripts++;
          summary.sourcesByPackage.set(key, entry);
        }
    }
    edge += count * edgeFields;
  }
  return summary;
}

const mib = (bytes: number) => (bytes / 1048576).toFixed(2);

/** Printable lines: one summary, or two side by side with `second − first`. */
export function describeHeapSummaries(first: HeapSummary, second?: HeapSummary, top = 15): string[] {
  const pair = (a: number, b?: number) =>
    b === undefined ? `${mib(a)}` : `${mib(a)} → ${mib(b)} (${b >= a ? '+' : ''}${mib(b - a)})`;
  const lines = [`live ${pair(first.totalBytes, second?.totalBytes)} MiB, ${first.nodes} objects`];
  const kinds = [...first.byType].sort((a, b) => b[1] - a[1]);
  lines.push(
    `by kind: ${kinds.map(([kind, bytes]) => `${kind} ${pair(bytes, second?.byType.get(kind) ?? 0)}`).join(', ')}`,
  );
  const packages = new Set([...first.sourcesByPackage.keys(), ...(second?.sourcesByPackage.keys() ?? [])]);
  const sourceOf = (summary: HeapSummary | undefined, key: string) =>
    summary?.sourcesByPackage.get(key)?.bytes ?? 0;
  const ranked = [...packages].sort(
    (a, b) =>
      Math.max(sourceOf(first, b), sourceOf(second, b)) - Math.max(sourceOf(first, a), sourceOf(second, a)),
  );
  const total = (summary: HeapSummary) =>
    [...summary.sourcesByPackage.values()].reduce((sum, v) => sum + v.bytes, 0);
  lines.push(`module sources ${pair(total(first), second && total(second))} MiB, largest packages:`);
  for (const key of ranked.slice(0, top))
    lines.push(
      `  ${key.padEnd(40)} ${pair(sourceOf(first, key), second && sourceOf(second, key))} MiB, ${first.sourcesByPackage.get(key)?.scripts ?? 0}${second ? ` → ${second.sourcesByPackage.get(key)?.scripts ?? 0}` : ''} scripts`,
    );
  const gone = ranked.filter((key) => second && sourceOf(first, key) > 0 && sourceOf(second, key) === 0);
  if (gone.length > 0) lines.push(`packages no longer loaded: ${gone.join(', ')}`);
  return lines;
}

/** The constructors with the most live objects: in a snapshot taken under load, what requests hold. */
export function describeHeldObjects(summary: HeapSummary, top = 40): string[] {
  return [...summary.objectsByName]
    .sort((a, b) => b[1].count - a[1].count)
    .slice(0, top)
    .map(
      ([name, { count, bytes }]) =>
        `${String(count).padStart(7)} ${name.slice(0, 60).padEnd(60)} ${mib(bytes)} MiB`,
    );
}

/** Asks a server (started with --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<directory>) for a heap snapshot; resolves with it, moved to `target`. */
export async function heapSnapshotOf(pid: number, directory: string, target: string): Promise<string> {
  const pattern = new RegExp(`^Heap\\..*\\.${pid}\\..*\\.heapsnapshot$`);
  const written = () => readdirSync(directory).find((name) => pattern.test(name));
  process.kill(pid, 'SIGUSR2');
  // Node writes the file as it walks the heap: done once it ends the JSON and its size holds for a second.
  let last = -1;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const name = written();
    if (!name) continue;
    const file = path.join(directory, name);
    const size = statSync(file).size;
    if (size === last && readFileSync(file, 'utf8').trimEnd().endsWith(']}')) {
      renameSync(file, target);
      return target;
    }
    last = size;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [first, second] = process.argv.slice(2).map(summariseHeapSnapshot);
  for (const line of describeHeapSummaries(first, second)) console.log(line);
}
