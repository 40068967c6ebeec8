/**
 * The garbage collector's pauses from a `--trace-gc` log (`BENCH_AB_PROFILE=rest-gc|graphql-gc` in
 * bench/ab-run.ts): per kind (Scavenge, Mark-Compact, ...), how many and how long, so the p99 tail can be put
 * down to young-generation scavenges or to full collections rather than guessed from CPU samples.
 */

export interface GcKind {
  kind: string;
  count: number;
  totalMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  atLeast10Ms: number;
  /** The heap after the last one of its kind, in MB (V8's figure). */
  lastHeapAfterMb: number;
}

// [12345:0x55d5…]    1234 ms: Scavenge 12.3 (20.1) -> 5.6 (21.1) MB, pooled: 0 MB, 1.23 / 0.00 ms  (…) allocation failure;
const LINE =
  /\d+ ms: ([A-Za-z-]+(?: \(reduce\))?) [\d.]+ \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB,.*?([\d.]+) \/ [\d.]+ ms/;

export function summariseGcTrace(text: string): GcKind[] {
  const byKind = new Map<string, { pauses: number[]; heapAfter: number }>();
  for (const line of text.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const entry = byKind.get(match[1]) ?? { pauses: [], heapAfter: 0 };
    entry.pauses.push(Number(match[3]));
    entry.heapAfter = Number(match[2]);
    byKind.set(match[1], entry);
  }
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return [...byKind].map(([kind, { pauses, heapAfter }]) => {
    const sorted = [...pauses].sort((a, b) => a - b);
    const at = (fraction: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
    return {
      kind,
      count: sorted.length,
      totalMs: round(sorted.reduce((sum, ms) => sum + ms, 0)),
      p50Ms: round(at(0.5)),
      p99Ms: round(at(0.99)),
      maxMs: round(sorted.at(-1) ?? 0),
      atLeast10Ms: sorted.filter((ms) => ms >= 10).length,
      lastHeapAfterMb: heapAfter,
    };
  });
}
