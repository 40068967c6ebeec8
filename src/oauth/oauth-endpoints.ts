import type OAuth2Server from '@node-oauth/oauth2-server';
import type { Request as ExpressRequest } from 'express';
import type * as Library from './oauth-library.js';
import type { OAuthStore } from './oauth-store.js';

type OAuthLibrary = typeof Library;
export type OAuthServers = ReturnType<OAuthLibrary['createOAuthServers']>;

/**
 * The OAuth library and its two servers (oauth-library.ts), loaded on the first authorize or token request
 * rather than at start-up: the library holds 1.3 MiB of heap, and most servers never see an OAuth request
 * (docs/benchmarks.md "sixth round, memory"). A failed load is tried again by the next request.
 */
export class OAuthEndpoints {
  private loading: Promise<{ library: OAuthLibrary; servers: OAuthServers }> | undefined;
  private library: OAuthLibrary | undefined;

  constructor(private readonly store: OAuthStore) {}

  load(): Promise<{ library: OAuthLibrary; servers: OAuthServers }> {
    this.loading ??= import('./oauth-library.js').then(
      (library) => {
        this.library = library;
        return { library, servers: library.createOAuthServers(this.store) };
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  /** An error of the library's: none can exist before it is loaded. */
  isOAuthError(error: unknown): error is OAuth2Server.OAuthError {
    return this.library?.isOAuthError(error) ?? false;
  }
}

/** Client credentials from HTTP Basic (RFC 6749 2.3.1: each part form-urlencoded) or the form body. */
export function clientCredentials(
  req: ExpressRequest,
  body: Record<string, unknown>,
): { clientId?: string; clientSecret?: string; viaBasic: boolean } {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.get('authorization') ?? '');
  if (match) {
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    if (separator > 0) {
      try {
        return {
          clientId: decodeURIComponent(decoded.slice(0, separator).replace(/\+/g, ' ')),
          clientSecret: decodeURIComponent(decoded.slice(separator + 1).replace(/\+/g, ' ')),
          viaBasic: true,
        };
      } catch {
        return { viaBasic: true };
      }
    }
    return { viaBasic: true };
  }
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return { clientId: text(body.client_id), clientSecret: text(body.client_secret), viaBasic: false };
}
