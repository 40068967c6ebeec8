/**
 * Allocation profile of a server under load (`BENCH_AB_PROFILE=rest-heap|graphql-heap` in bench/ab-run.ts).
 * Node's `--heap-prof` keeps only the samples of objects still alive when it stops, which hides exactly the
 * short-lived garbage that makes the young-generation pauses; the inspector's sampling heap profiler can keep the
 * samples of collected objects too, so this drives it over the server's inspector socket (`--inspect`).
 */
import { writeFileSync } from 'node:fs';

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** One inspector session over the DevTools WebSocket of a process started with `--inspect=<port>`. */
async function inspectorSession(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, Pending>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
    };
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  });
  return {
    send<T>(method: string, params: object = {}): Promise<T> {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve, reject) =>
        pending.set(id, { resolve: resolve as Pending['resolve'], reject }),
      );
    },
    close: () => socket.close(),
  };
}

export interface AllocationEntry {
  name: string;
  mib: number;
  percent: number;
}

/**
 * Samples every allocation (collected or not) of the process listening for the inspector on `port` while
 * `load` runs; writes the raw `.heapprofile` (open it in DevTools' Memory tab) and returns the allocated bytes
 * by function (self) and by the first frame of ours or of a package on the stack.
 */
export async function allocationProfile(
  port: number,
  load: () => Promise<unknown>,
  file: string,
): Promise<{ totalMib: number; byFunction: AllocationEntry[]; byModule: AllocationEntry[] }> {
  const session = await inspectorSession(port);
  await session.send('HeapProfiler.enable');
  await session.send('HeapProfiler.startSampling', {
    samplingInterval: 8192,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await load();
  const { profile } = await session.send<{ profile: { head: SamplingNode } }>('HeapProfiler.stopSampling');
  session.close();
  writeFileSync(file, JSON.stringify(profile));
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  let total = 0;
  const walk = (node: SamplingNode, module: string) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const short = url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, '');
    // The first frame that is not Node's own decides the module, so Buffer work of pg counts for pg.
    const here =
      url && !url.startsWith('node:') ? (/^(@[^/]+\/[^/]+|[^/]+)/.exec(short)?.[1] ?? short) : module;
    const name = `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
    total += node.selfSize;
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
    byModule.set(here, (byModule.get(here) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, here);
  };
  walk(profile.head, '(root)');
  const top = (sizes: Map<string, number>, count: number) =>
    [...sizes.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, bytes]) => ({
        name,
        mib: Math.round((bytes / 2 ** 20) * 10) / 10,
        percent: Math.round((bytes / total) * 1000) / 10,
      }));
  return {
    totalMib: Math.round((total / 2 ** 20) * 10) / 10,
    byFunction: top(byFunction, 40),
    byModule: top(byModule, 15),
  };
}
