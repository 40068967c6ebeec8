import type { WebSocket, WebSocketServer } from 'ws';
import { API_KEY_REVOKED_CHANNEL } from '../api-keys/api-key.service.js';
import { RateLimitedError, UnauthorizedError, type AppError } from '../core/errors.js';
import type { PgListener } from '../core/pg-listener.js';
import type { Viewer } from '../core/viewer.js';
import { parseBearer, resolveCredential, type Authenticator } from '../http/authenticate.js';
import type { RateLimiter } from '../http/rate-limit.js';

/** graphql-ws's own code when onConnect refuses (bad or missing credentials). */
export const CLOSE_FORBIDDEN = 4403;
/** A spent rate limit at connection_init: the HTTP status as the close code. */
export const CLOSE_RATE_LIMITED = 4429;
/** Credentials are checked again this often, so a connection ends when its key or token stops being valid. */
const CREDENTIAL_RECHECK_MS = 60_000;

/** connection_init payload: `{ authorization: 'Bearer <key>' }` (`Authorization` also accepted). */
export type ConnectionParams = Record<string, unknown>;

interface Session {
  viewer: Viewer;
  token: string;
  ip: string;
}

export type Admission =
  | { admitted: true; ack: Record<string, unknown> }
  | { admitted: false; close?: { code: number; reason: string } };

function tokenOf(params: ConnectionParams | undefined): string | null {
  const header = params?.authorization ?? params?.Authorization;
  return typeof header === 'string' ? parseBearer(header) : null;
}

/**
 * Who may use a graphql-ws connection: the same authenticators and rate limit as HTTP, checked at
 * connection_init and again at every subscribe, and a connection ends (4403) as soon as its credential
 * stops being valid: at once for a revoked API key (in every process), within a minute otherwise.
 */
export class ConnectionGuard {
  private readonly sessions = new WeakMap<WebSocket, Session>();
  private recheckTimer: NodeJS.Timeout | null = null;
  private unlistenRevoked: (() => void) | null = null;

  constructor(
    private readonly authenticators: readonly Authenticator[],
    private readonly rateLimiter: RateLimiter,
  ) {}

  /** connection_init: counted like an HTTP request (per organization and environment, or per IP). */
  async admit(socket: WebSocket, ip: string, params: ConnectionParams | undefined): Promise<Admission> {
    const token = tokenOf(params);
    const credential = await resolveCredential(this.authenticators, token, ip);
    const rate = await this.rateLimiter.consume(credential.viewer, ip);
    if (!rate.allowed)
      return {
        admitted: false,
        close: {
          code: CLOSE_RATE_LIMITED,
          reason: `Rate limit exceeded; retry in ${rate.retryAfterSeconds} s`,
        },
      };
    if (!credential.viewer || !token) return { admitted: false };
    this.sessions.set(socket, { viewer: credential.viewer, token, ip });
    return {
      admitted: true,
      ack: { rateLimit: { limit: rate.limit, remaining: rate.remaining, reset: rate.resetSeconds } },
    };
  }

  /** subscribe: the credential again (it may have been revoked since), then the rate limit. */
  async authorizeOperation(
    socket: WebSocket,
  ): Promise<{ viewer: Viewer } | { error: AppError; close: boolean }> {
    const session = this.sessions.get(socket);
    if (!session) return { error: new UnauthorizedError(), close: true };
    const credential = await resolveCredential(this.authenticators, session.token, session.ip);
    if (!credential.viewer) return { error: credential.error, close: true };
    const rate = await this.rateLimiter.consume(credential.viewer, session.ip);
    if (!rate.allowed) return { error: new RateLimitedError(rate.retryAfterSeconds), close: false };
    return { viewer: credential.viewer };
  }

  close(socket: WebSocket, code: number, reason: string): void {
    this.sessions.delete(socket);
    socket.close(code, reason);
  }

  private unwatchListener: (() => void) | null = null;

  async watch(wss: WebSocketServer, listener: PgListener): Promise<void> {
    this.unlistenRevoked = await listener.listen(API_KEY_REVOKED_CHANNEL, (apiKeyId) => {
      for (const socket of wss.clients) {
        const viewer = this.sessions.get(socket)?.viewer;
        if (viewer?.credentialKind === 'api_key' && viewer.credentialId === apiKeyId)
          this.close(socket, CLOSE_FORBIDDEN, 'Forbidden: API key revoked');
      }
    });
    // Revocations announced while the LISTEN connection was down were missed: check every socket at once.
    this.unwatchListener = listener.onStateChange((state) => {
      if (state === 'restored') void this.recheck(wss);
    });
    // A timer is right here: it paces a check of this process's live sockets and holds no work of its own.
    this.recheckTimer = setInterval(() => void this.recheck(wss), CREDENTIAL_RECHECK_MS);
    this.recheckTimer.unref();
  }

  stop(): void {
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    this.unlistenRevoked?.();
    this.unwatchListener?.();
  }

  private async recheck(wss: WebSocketServer): Promise<void> {
    for (const socket of wss.clients) {
      const session = this.sessions.get(socket);
      if (!session) continue;
      const credential = await resolveCredential(this.authenticators, session.token, session.ip).catch(
        () => null, // the database is unreachable: keep the connection rather than drop everyone
      );
      if (credential && !credential.viewer)
        this.close(socket, CLOSE_FORBIDDEN, 'Forbidden: credential no longer valid');
    }
  }
}
