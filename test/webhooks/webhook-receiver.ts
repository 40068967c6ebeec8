import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { check, eventually } from '../helpers/eventually.js';

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  /** The raw body, exactly as received (signatures are over these bytes). */
  body: string;
  receivedAt: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer this late (timeouts). */
  delayMs?: number;
  /** Answer once this settles (a receiver holding requests while the test changes something), then `delayMs`. */
  until?: Promise<unknown>;
}

/** Decides the reply to a request; `index` counts the requests of the same path, from 0. */
export type Responder = (request: ReceivedRequest, index: number) => Reply;

/** A webhook endpoint on a loopback port that records every request and answers as told (200 by default). */
export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  private responder: Responder = () => ({ status: 200, body: 'ok' });
  private readonly countByPath = new Map<string, number>();

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = http.createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => receiver.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  respondWith(responder: Responder): void {
    this.responder = responder;
  }

  on(path: string): ReceivedRequest[] {
    return this.received.filter((request) => request.path === path);
  }

  /** Waits until `path` has received at least `count` requests. */
  async waitFor(path: string, count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    await eventually(() => expect(this.on(path).length).toBeGreaterThanOrEqual(count), {
      timeout: timeoutMs,
      what: `${count} requests on ${path}`,
    });
    return this.on(path);
  }

  /** Waits for a request on `path` that `matches` (others may arrive first, e.g. notices about other webhooks). */
  async waitForMatching(
    path: string,
    matches: (request: ReceivedRequest) => boolean,
    timeoutMs = 10_000,
  ): Promise<ReceivedRequest[]> {
    await eventually(
      () => check(this.on(path).some(matches), `${this.on(path).length} requests, none matching`),
      {
        timeout: timeoutMs,
        what: `a matching request on ${path}`,
      },
    );
    return this.on(path).filter(matches);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        path: req.url ?? '/',
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(', ') : (value ?? ''),
          ]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      const index = this.countByPath.get(request.path) ?? 0;
      this.countByPath.set(request.path, index + 1);
      this.received.push(request);
      const reply = this.responder(request, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers ?? {});
        res.end(reply.body ?? '');
      };
      const answer = () => {
        if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
        else send();
      };
      if (reply.until) void reply.until.finally(answer);
      else answer();
    });
  }
}
