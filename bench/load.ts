import autocannon from 'autocannon';

export interface LoadTarget {
  name: string;
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  /** Responses that were not 2xx, plus connection errors and timeouts: any of these makes the run suspect. */
  failures: number;
  /**
   * CPU time the server process spent per request during the measured pass (PostgreSQL's not included):
   * steadier than req/s on a machine shared with other work.
   */
  serverCpuMsPerRequest: number | null;
}

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

function run(target: LoadTarget, connections: number, duration: number): Promise<autocannon.Result> {
  return autocannon({
    url: target.url,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections,
    duration,
  });
}

/**
 * A short unmeasured pass (JIT, pools, caches), then the measured one. `serverCpuMs` reads the serving
 * process's CPU time so far.
 */
export async function measure(
  target: LoadTarget,
  settings: LoadSettings,
  serverCpuMs: () => number | null = () => null,
): Promise<LoadResult> {
  await run(target, settings.connections, settings.warmupSeconds);
  const cpuBefore = serverCpuMs();
  const result = await run(target, settings.connections, settings.durationSeconds);
  const cpuAfter = serverCpuMs();
  const requests = result.requests.total;
  return {
    name: target.name,
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests,
    failures: result.non2xx + result.errors + result.timeouts,
    serverCpuMsPerRequest:
      cpuBefore !== null && cpuAfter !== null && requests > 0
        ? Math.round(((cpuAfter - cpuBefore) / requests) * 100) / 100
        : null,
  };
}
