import type http from 'node:http';

/**
 * The HTTP server's timeouts, chosen rather than inherited (docs/reliability.md):
 * - requestTimeout 30 s: the whole request (headers and body) must arrive within it; a client that
 *   trickles a body is cut off with 408 instead of holding a socket for Node's default 300 s.
 * - headersTimeout 10 s: the headers alone (slowloris).
 * - keepAliveTimeout 65 s: an idle keep-alive connection stays open longer than the 60 s idle timeout
 *   of common load balancers, so they never reuse a socket the server is closing (sporadic 502s).
 * Node checks these every `connectionsCheckingInterval` (1 s here instead of 30 s).
 */
export interface HttpTimeouts {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 65_000,
};

export function httpServerOptions(timeouts: HttpTimeouts = DEFAULT_HTTP_TIMEOUTS): http.ServerOptions {
  return {
    requestTimeout: timeouts.requestTimeoutMs,
    // Node requires headersTimeout <= requestTimeout.
    headersTimeout: Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs),
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    connectionsCheckingInterval: 1_000,
  };
}
