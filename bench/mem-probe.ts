/**
 * `node --import dist/bench/mem-probe.js …`: loaded into a server by `bench/mem-run.ts` to say what its resident
 * memory is made of while it runs. Every BENCH_MEM_PROBE_MS (20) it appends one line to BENCH_MEM_PROBE_FILE:
 * the time, RSS, the old space's used bytes, V8's resident size per heap space, and the external and ArrayBuffer bytes V8 knows of (KiB), so
 * the driver can tell, at the moment of the peak, heap from off-heap (malloc arenas, buffers, thread stacks).
 * One line per sample through a plain fd: nothing is kept in the measured process.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import v8 from 'node:v8';

const file = process.env.BENCH_MEM_PROBE_FILE;
if (file) {
  const fd = openSync(file, 'w');
  const kib = (bytes: number) => Math.round(bytes / 1024);
  const names = v8.getHeapSpaceStatistics().map((space) => space.space_name);
  writeSync(fd, `# t rss external arrayBuffers oldUsed ${names.join(' ')}\n`);
  const sample = () => {
    const usage = process.memoryUsage();
    const statistics = v8.getHeapSpaceStatistics();
    const spaces = statistics.map((space) => kib(space.physical_space_size));
    const oldUsed = kib(statistics.find((space) => space.space_name === 'old_space')?.space_used_size ?? 0);
    writeSync(
      fd,
      `${Date.now()} ${kib(usage.rss)} ${kib(usage.external)} ${kib(usage.arrayBuffers)} ${oldUsed} ${spaces.join(' ')}\n`,
    );
  };
  const timer = setInterval(sample, Number(process.env.BENCH_MEM_PROBE_MS ?? 20));
  timer.unref();
  process.once('exit', () => {
    clearInterval(timer);
    closeSync(fd);
  });
}
