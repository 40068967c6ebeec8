import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { guardedLookup, hostOf, isNonPublicAddress, type HostResolver } from './webhook-url.js';

/** Kept connections: a busy receiver gets many deliveries over a few sockets. */
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 }),
};

export interface PostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Absent: private targets are allowed (development and tests). */
  resolveForCheck?: HostResolver;
}

export interface PostOutcome {
  statusCode: number | null;
  latencyMs: number;
  /** Present when no 2xx came: the transport error, the timeout, or the non-2xx status. */
  error: string | null;
  /** Response headers (lower-case), for Retry-After. */
  headers: http.IncomingHttpHeaders;
}

/** How much of a response body is read before the connection is given back. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one delivery. Never follows redirects (a 3xx is a failure: the receiver should be configured with
 * its final URL, and following would bypass the target check). The whole exchange, including the
 * response body, must finish within `timeoutMs`.
 */
export function postDelivery(request: PostRequest): Promise<PostOutcome> {
  const url = new URL(request.url);
  const host = hostOf(url);
  if (request.resolveForCheck && isIP(host) && isNonPublicAddress(host)) {
    // A literal address never goes through `lookup`, so it is checked here.
    const error = `refused: ${host} is not a public address`;
    return Promise.resolve({ statusCode: null, latencyMs: 0, error, headers: {} });
  }
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    // Only called from the request's events, which come after `timer` is set.
    const finish = (outcome: Omit<PostOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, latencyMs: Math.round(performance.now() - started) });
    };
    const fail = (error: string) => finish({ statusCode: null, error, headers: {} });
    const client = url.protocol === 'https:' ? https : http;
    let req: http.ClientRequest;
    try {
      req = client.request(url, {
        method: 'POST',
        agent: agents[url.protocol as 'http:' | 'https:'],
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup: request.resolveForCheck ? guardedLookup(request.resolveForCheck) : undefined,
      });
    } catch (error) {
      // e.g. a header Node refuses: a failed attempt like any other, not a crashed job
      const message = error instanceof Error ? error.message : String(error);
      return resolve({ statusCode: null, latencyMs: 0, error: message, headers: {} });
    }
    const timer = setTimeout(() => {
      req.destroy();
      fail(`timed out after ${request.timeoutMs} ms`);
    }, request.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) =>
      fail(error.code ? `${error.code}: ${error.message}` : error.message),
    );
    req.on('response', (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_RESPONSE_BYTES) res.destroy();
      });
      const done = () => {
        const statusCode = res.statusCode ?? null;
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        finish({ statusCode, error: ok ? null : `HTTP ${statusCode}`, headers: res.headers });
      };
      res.on('end', done);
      res.on('close', done);
      res.on('error', () => done());
    });
    req.end(request.body);
  });
}
