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

/*
 * Everything that needs the OAuth library (@node-oauth/oauth2-server), loaded on the first request that needs it
 * (oauth-endpoints.ts `OAuthEndpoints`), not at start-up: 1.3 MiB of heap that most servers never use.
 */

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

/** The library's response object, which its servers fill in. */
export function libraryResponse(): OAuth2Server.Response {
  return new OAuth2Server.Response();
}
