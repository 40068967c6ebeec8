/**
 * Fault suite (docs/reliability.md): a client that trickles its request body is cut off by the server's
 * requestTimeout (408, socket closed) instead of holding a connection for Node's default 300 s.
 */
import { connect } from 'node:net';
import { TestApp } from '../helpers/test-app.js';
import { DEFAULT_HTTP_TIMEOUTS, httpServerOptions } from '../../src/http/server-timeouts.js';

let app: TestApp;
beforeAll(async () => {
  app = await TestApp.start({
    httpTimeouts: { requestTimeoutMs: 1_000, headersTimeoutMs: 500, keepAliveTimeoutMs: 5_000 },
  });
});
afterAll(() => app.stop());

describe('[fault] HTTP timeouts', () => {
  it('sets each timeout deliberately (not the Node defaults)', () => {
    expect(httpServerOptions()).toEqual({
      requestTimeout: DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs,
      headersTimeout: DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs,
      keepAliveTimeout: DEFAULT_HTTP_TIMEOUTS.keepAliveTimeoutMs,
      connectionsCheckingInterval: 1_000,
    });
    expect(DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs).toBeLessThan(300_000);
  });

  it('answers 408 and closes the socket of a client that never finishes its body', async () => {
    const { hostname, port } = new URL(app.baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          'POST /v1/webhooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
            'Content-Length: 1000\r\n\r\n{',
        );
      });
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    // Whatever was answered early (a 401 here), the unfinished request ends with 408 and a closed socket.
    expect(answer).toMatch(/HTTP\/1\.1 408 Request Timeout/);
  }, 30_000);
});
