import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import type { Microsoft365Settings } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import { serveDefender } from './graph-fake-defender.js';
import { handleMonitor, setCopyPendingPolls } from './graph-fake-drives.js';
import { handleGraph, graphError, type GraphCall } from './graph-fake-graph.js';
import { handleTokenRequest, type FakeReply } from './graph-fake-login.js';
import { GraphFakeState } from './graph-fake-state.js';

export type FakeService = 'login' | 'graph' | 'defender';

/** One request the fake received, as the test asserts it. */
export interface RecordedRequest {
  service: FakeService;
  method: string;
  /** Path and query, decoded: `/v1.0/users/delta?$select=id,displayName`. */
  url: string;
  /** login: the tenant in the path; graph: the tenant of the token (defender: unset). */
  tenantId?: string;
  /** login: the client id of the form. */
  clientId?: string;
  /** The JSON body sent, when there was one. */
  body?: unknown;
  /** graph-client's retry counter header (`Retry-Attempt`), on a retried call. */
  retryAttempt?: string;
  status: number;
}

/** A failure the fake answers instead of the real thing, `times` times, to requests that match. */
export interface Fault {
  service?: FakeService;
  /** Substring or pattern of the recorded `url`. */
  url?: string | RegExp;
  /** Only requests of this method (any when absent). */
  method?: string;
  /** Below 400 (with `delayMs`): the real answer, late. */
  status: number;
  retryAfterSeconds?: number;
  code?: string;
  message?: string;
  times?: number;
  /** Wait this long before answering (a Graph that does not answer in time). */
  delayMs?: number;
  /**
   * Answer once this settles (after `delayMs`, if both): a request the test holds while it looks at what the app
   * does meanwhile, then lets go (a gate, test/helpers/cloud-gate.ts), rather than a delay it hopes is long enough.
   */
  until?: PromiseLike<void>;
  /** Do the real thing first, then answer the failure (an answer lost on the way back; the Defender origin). */
  lostAnswer?: boolean;
}

/**
 * Jest runs a single test file in its own process (in band), which started before global setup set
 * NODE_EXTRA_CA_CERTS; there the run's authority joins Node's default trust store through
 * tls.setDefaultCACertificates (Node ≥ 24.5), the in-process equivalent. Workers and child processes
 * already trust it from NODE_EXTRA_CA_CERTS.
 */
export function trustFakeAuthority(): void {
  const dir = process.env.GRAPH_FAKE_CERT_DIR;
  if (!dir) return;
  const ca = readFileSync(path.join(dir, 'ca.pem'), 'utf8').trim();
  const trusted = tls.getCACertificates('default');
  if (trusted.some((certificate) => certificate.trim() === ca)) return;
  tls.setDefaultCACertificates([...trusted, ca]);
}

function certificates(): { cert: Buffer; key: Buffer } {
  const dir = process.env.GRAPH_FAKE_CERT_DIR;
  if (!dir)
    throw new Error(
      'GRAPH_FAKE_CERT_DIR is not set: the Graph fake needs test/global-setup.mjs to make its certificate',
    );
  return {
    cert: readFileSync(path.join(dir, 'server.pem')),
    key: readFileSync(path.join(dir, 'server.key')),
  };
}

async function readBody(request: import('node:http').IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An HTTPS stand-in for Microsoft Entra ID (the client-credentials token endpoint) and Microsoft Graph v1.0,
 * on two loopback ports with a certificate of the run's own authority (test/graph-fake/certificates.mjs).
 * It keeps a directory (GraphFakeState), records every request, and answers injected faults (429 with
 * Retry-After, 503, slow answers) before the real thing.
 */
export class GraphFake {
  /** Replaced by `reset()` (a shared live server's next file): hold the fake, not its state, across files. */
  state = new GraphFakeState();
  readonly requests: RecordedRequest[] = [];
  private readonly faults: Fault[] = [];
  private servers: https.Server[] = [];
  loginUrl = '';
  graphUrl = '';
  defenderUrl = '';

  static async start(): Promise<GraphFake> {
    const fake = new GraphFake();
    const tls = certificates();
    const listen = async (service: FakeService) => {
      const server = https.createServer(tls, (request, response) => {
        fake.serve(service, request).then(
          (reply) => {
            response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
            response.end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
          },
          (error: unknown) => {
            response.writeHead(500, { 'content-type': 'application/json' });
            response.end(JSON.stringify({ error: { code: 'FakeFailure', message: String(error) } }));
          },
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      fake.servers.push(server);
      return `https://localhost:${(server.address() as AddressInfo).port}`;
    };
    fake.loginUrl = await listen('login');
    fake.graphUrl = await listen('graph');
    fake.defenderUrl = await listen('defender');
    return fake;
  }

  inject(fault: Fault): void {
    this.faults.push({ times: 1, ...fault });
  }

  /** The Graph requests received, as `METHOD url` (e.g. `GET /v1.0/organization?$select=id,displayName`). */
  graphCalls(): string[] {
    return this.requests.filter((r) => r.service === 'graph').map((r) => `${r.method} ${r.url}`);
  }

  /** The Defender for Endpoint requests received, as `METHOD url` (e.g. `POST /api/machines/{id}/isolate`). */
  defenderCalls(): string[] {
    return this.requests.filter((r) => r.service === 'defender').map((r) => `${r.method} ${r.url}`);
  }

  /** The token requests received, as `tenant clientId`. */
  tokenRequests(): RecordedRequest[] {
    return this.requests.filter((request) => request.service === 'login');
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  /**
   * Forgets everything a test file set: a new, empty directory (apps, tenants with their area state, issued
   * tokens, page size, token lifetime), no recorded request, no pending fault, copy monitors done at the first poll again. The
   * jest worker's shared live server (test/helpers/shared-live-server.ts) calls it before each file, so a
   * file cannot see, nor be answered by, another file's tenants, tokens or throttling rules.
   */
  reset(): void {
    this.state = new GraphFakeState();
    this.clearRequests();
    this.faults.length = 0;
    setCopyPendingPolls(0);
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.servers.map((server) => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      }),
    );
  }

  private takeFault(service: FakeService, method: string, url: string): Fault | undefined {
    const index = this.faults.findIndex(
      (fault) =>
        (fault.service ?? 'graph') === service &&
        (fault.method === undefined || fault.method === method) &&
        (fault.url === undefined ||
          (typeof fault.url === 'string' ? url.includes(fault.url) : fault.url.test(url))),
    );
    if (index < 0) return undefined;
    const fault = this.faults[index];
    fault.times = (fault.times ?? 1) - 1;
    if (fault.times <= 0) this.faults.splice(index, 1);
    return fault;
  }

  private async serve(
    service: FakeService,
    request: import('node:http').IncomingMessage,
  ): Promise<FakeReply> {
    const raw = await readBody(request);
    const parsed = new URL(request.url ?? '/', 'https://fake.invalid');
    const url = decodeURIComponent(parsed.pathname + parsed.search);
    const record: RecordedRequest = { service, method: request.method ?? 'GET', url, status: 0 };
    const retryAttempt = request.headers['retry-attempt'];
    if (typeof retryAttempt === 'string') record.retryAttempt = retryAttempt;
    this.requests.push(record);
    const clientRequestId = request.headers['client-request-id'] as string | undefined;
    let reply: FakeReply;
    const fault = this.takeFault(service, record.method, url);
    if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault?.until) await fault.until;
    if (service === 'login') {
      const tenantRef = parsed.pathname.split('/')[1] ?? '';
      const form = new URLSearchParams(raw);
      record.tenantId = tenantRef;
      record.clientId = form.get('client_id') ?? undefined;
      reply =
        fault && fault.status >= 400
          ? {
              status: fault.status,
              headers: retryAfter(fault),
              body: {
                error: fault.code ?? 'temporarily_unavailable',
                error_description: fault.message ?? 'AADSTS50196: The server is busy.',
              },
            }
          : parsed.pathname.endsWith('/oauth2/v2.0/token') && request.method === 'POST'
            ? handleTokenRequest(this.state, tenantRef, form)
            : { status: 404, body: { error: 'not_found', error_description: `The fake serves no ${url}` } };
    } else if (service === 'defender') {
      reply = serveDefender(this.state, this.defenderUrl, { record, parsed, raw, request, fault });
    } else {
      const call: GraphCall = {
        method: record.method,
        path: parsed.pathname.replace(/^\/v1\.0/, ''),
        query: parsed.searchParams,
        body: raw ? (JSON.parse(raw) as unknown) : undefined,
        authorization: request.headers.authorization,
        clientRequestId,
        prefer: request.headers.prefer?.toString(),
      };
      if (call.body !== undefined) record.body = call.body;
      const token = this.state.tokens.get(call.authorization?.replace(/^Bearer /, '') ?? '');
      record.tenantId = token?.tenantId;
      reply =
        fault && fault.status >= 400
          ? graphError(
              fault.status,
              fault.code ?? defaultCode(fault.status),
              fault.message ?? defaultMessage(fault.status),
              clientRequestId,
              retryAfter(fault),
            )
          : parsed.pathname.startsWith('/monitor/')
            ? handleMonitor(parsed.pathname.slice('/monitor/'.length))
            : !parsed.pathname.startsWith('/v1.0/')
              ? graphError(400, 'BadRequest', 'Invalid version.', clientRequestId)
              : handleGraph(this.state, this.graphUrl, call);
    }
    record.status = reply.status;
    return reply;
  }
}

export function retryAfter(fault: Fault): Record<string, string> {
  return fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
}

export function defaultCode(status: number): string {
  if (status === 429) return 'TooManyRequests';
  if (status === 503) return 'serviceNotAvailable';
  if (status === 504) return 'UnknownError';
  return 'generalException';
}

export function defaultMessage(status: number): string {
  if (status === 429) return 'Too many requests.';
  if (status === 503) return 'The service is temporarily unavailable. Please try again later.';
  return 'An error occurred.';
}

/** For AppDeps.microsoft365 / TestApp: the fake's URLs, short retry waits and deadlines. */
export function fakeMicrosoft365Settings(fake: GraphFake): Partial<Microsoft365Settings> {
  return {
    loginUrl: fake.loginUrl,
    graphUrl: fake.graphUrl,
    defenderUrl: fake.defenderUrl,
    requestTimeoutMs: 5_000,
    maxRetries: 2,
    maxRetryWaitSeconds: 2,
    retryDelaySeconds: 0,
  };
}
