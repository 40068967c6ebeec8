import type { FeatureModule } from '../core/feature-module.js';
import { OAUTH_CLIENT_ROUTES } from './oauth-client.rest.js';
import { OAuthClient } from './oauth-client.entity.js';
import { OAuthClientResolver } from './oauth-client.resolver.js';
import { OAuthAuthorizationCode, OAuthToken } from './oauth-grant.entity.js';

/** OAuth 2 clients, codes and tokens (SPEC 5.2); the endpoints themselves are Express routes (oauth.routes.ts). */
export const oauthModule: FeatureModule = {
  name: 'oauth',
  resolvers: [OAuthClientResolver],
  entities: [OAuthClient, OAuthAuthorizationCode, OAuthToken],
  routes: { api: OAUTH_CLIENT_ROUTES },
};
