import OAuth2Server from '@node-oauth/oauth2-server';
import type { Request as ExpressRequest } from 'express';
import type { OAuthStore } from './oauth-store.js';
import { createOAuthModel } from './oauth-model.js';
import { ScopeCheckedRefreshTokenGrantType } from './refresh-token-grant.js';
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  AUTHORIZATION_CODE_LIFETIME_SECONDS,
  REFRESH_TOKEN_LIFETIME_SECONDS,
} from './oauth.settings.js';

/**
 * The two library servers: one issues codes at the authorize endpoint (clients looked up by id), the
 * other runs the token endpoint (clients authenticated with their secret).
 */
export function createOAuthServers(store: OAuthStore) {
  const authorize = new OAuth2Server({
    model: createOAuthModel(store, { requireClientSecret: false }),
    authorizationCodeLifetime: AUTHORIZATION_CODE_LIFETIME_SECONDS,
    allowEmptyState: true,
  });
  const token = new OAuth2Server({
    model: createOAuthModel(store, { requireClientSecret: true }),
    accessTokenLifetime: ACCESS_TOKEN_LIFETIME_SECONDS,
    refreshTokenLifetime: REFRESH_TOKEN_LIFETIME_SECONDS,
    alwaysIssueNewRefreshToken: true,
    // Replaces the library's own refresh_token grant (see the class for why).
    extendedGrantTypes: {
      refresh_token: ScopeCheckedRefreshTokenGrantType as unknown as typeof OAuth2Server.AbstractGrantType,
    },
  });
  return { authorize, token };
}

export type OAuthServers = ReturnType<typeof createOAuthServers>;

/** The library's request object for an Express request (headers, method, query, parsed form body). */
export function libraryRequest(req: ExpressRequest, body: Record<string, unknown>): OAuth2Server.Request {
  return new OAuth2Server.Request({
    headers: req.headers as Record<string, string>,
    method: req.method,
    query: {},
    body,
  });
}

export function isOAuthError(error: unknown): error is OAuth2Server.OAuthError {
  return error instanceof OAuth2Server.OAuthError;
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
