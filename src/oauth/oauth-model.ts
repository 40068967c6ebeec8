import type OAuth2Server from '@node-oauth/oauth2-server';
import { MemberRole } from '../members/member.entity.js';
import { normalizeScopes, roleMayGrant } from './oauth-scopes.js';
import { OAuthTokenKind } from './oauth-grant.entity.js';
import {
  ACCESS_TOKEN_PREFIX,
  AUTHORIZATION_CODE_PREFIX,
  matchesHash,
  randomSecret,
  REFRESH_TOKEN_PREFIX,
} from './oauth-secrets.js';
import type { ClientRecord, GrantHolder, OAuthStore } from './oauth-store.js';
import { ACCESS_TOKEN_LIFETIME_SECONDS } from './oauth.settings.js';

type Model = OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel;
type Client = OAuth2Server.Client;
type User = OAuth2Server.User;

/** Every client may use the authorization code grant and refresh its tokens; no other grant exists. */
const GRANTS = ['authorization_code', 'refresh_token'];

/** The library's client object carries our record along (organization, environment, name). */
export interface ModelClient extends Client {
  record?: ClientRecord;
}

/** The library passes "the user" through untouched: ours is the member and the grant the tokens belong to. */
function holderOf(user: User): GrantHolder {
  const holder = user as GrantHolder;
  if (!holder.memberId) throw new Error('OAuth model: the user object is not a grant holder');
  return holder;
}

function recordOf(client: Client): ClientRecord {
  const record = (client as ModelClient).record;
  if (!record) throw new Error('OAuth model: the client object carries no record');
  return record;
}

/**
 * The storage model of @node-oauth/oauth2-server, which does the protocol (RFC 6749, PKCE of RFC 7636).
 *
 * Time: the library compares expiries with the real clock, while our rules read the injectable clock.
 * Expiries are stored on the injectable clock and handed to the library translated to real time
 * (`libraryTime`), so moving the clock in a test expires a code exactly as waiting would.
 *
 * `requireClientSecret`: the authorize endpoint looks clients up by id alone; the token endpoint
 * authenticates them (every client is confidential, PKCE comes on top of the secret).
 */
export function createOAuthModel(store: OAuthStore, options: { requireClientSecret: boolean }): Model {
  const libraryTime = (stored: Date) =>
    new Date(Date.now() + (stored.getTime() - store.clock.now().getTime()));

  const memberOf = async (memberId: string, organizationId: string, grantId: string) => {
    const member = await store.findMember(memberId, organizationId);
    return member ? { memberId: member.id, role: member.role, grantId } : null;
  };

  return {
    async getClient(clientId: string, clientSecret: string | null | undefined) {
      const record = await store.findClient(clientId);
      if (!record) return false;
      if (options.requireClientSecret && !(clientSecret && matchesHash(clientSecret, record.secretHash)))
        return false;
      const client: ModelClient = {
        id: record.id,
        grants: GRANTS,
        redirectUris: record.redirectUris,
        record,
      };
      return client;
    },

    generateAuthorizationCode: async () => randomSecret(AUTHORIZATION_CODE_PREFIX),
    generateAccessToken: async () => randomSecret(ACCESS_TOKEN_PREFIX),
    generateRefreshToken: async () => randomSecret(REFRESH_TOKEN_PREFIX),

    /** Known scopes only, and `admin` only from a member whose role may grant it. */
    async validateScope(user: User, _client: Client, scope?: string[]) {
      const scopes = normalizeScopes(scope);
      const { role } = holderOf(user);
      if (!scopes || !scopes.every((s) => roleMayGrant(role ?? MemberRole.MEMBER, s))) return false;
      return scopes;
    },

    async saveAuthorizationCode(code, client, user) {
      await store.saveCode({
        code: code.authorizationCode,
        client: recordOf(client),
        holder: holderOf(user),
        redirectUri: code.redirectUri,
        scopes: code.scope ?? [],
        codeChallenge: code.codeChallenge ?? null,
        codeChallengeMethod: code.codeChallenge ? (code.codeChallengeMethod ?? 'S256') : null,
      });
      return { ...code, client, user };
    },

    /** A code used before is a replay: everything issued from it is revoked, and the code refused. */
    async getAuthorizationCode(authorizationCode: string) {
      const row = await store.findCode(authorizationCode);
      if (!row) return false;
      if (row.consumedAt) {
        await store.revokeGrant(row.id);
        return false;
      }
      const user = await memberOf(row.memberId, row.organizationId, row.id);
      if (!user) return false;
      return {
        authorizationCode,
        expiresAt: libraryTime(row.expiresAt),
        redirectUri: row.redirectUri,
        scope: row.scopes,
        client: { id: row.oauthClientId, grants: GRANTS },
        user,
        codeChallenge: row.codeChallenge ?? undefined,
        codeChallengeMethod: row.codeChallengeMethod ?? undefined,
      };
    },

    /** Single use: only the first exchange marks the code; a racing second one is treated as a replay. */
    async revokeAuthorizationCode(code) {
      const { grantId } = holderOf(code.user);
      if (!grantId) return false;
      if (await store.consumeCode(grantId)) return true;
      await store.revokeGrant(grantId);
      return false;
    },

    async saveToken(token, client, user) {
      const holder = holderOf(user);
      if (!holder.grantId) throw new Error('OAuth model: tokens need the grant they descend from');
      await store.saveTokens({
        client: recordOf(client),
        holder: { memberId: holder.memberId, role: holder.role, grantId: holder.grantId },
        scopes: token.scope ?? [],
        accessToken: token.accessToken,
        refreshToken: token.refreshToken,
      });
      // The library derives expires_in by flooring (expiresAt - now) a few milliseconds after it chose
      // expiresAt, which would answer 3599; restated here so clients read the documented lifetime.
      const accessTokenExpiresAt = new Date(Date.now() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000 + 500);
      return { ...token, accessTokenExpiresAt, client, user };
    },

    /** Part of the library's model contract; API requests use AccessTokenAuthenticator instead. */
    async getAccessToken(accessToken: string) {
      const row = await store.findToken(accessToken, OAuthTokenKind.ACCESS);
      if (!row || row.revokedAt) return false;
      const user = await memberOf(row.memberId, row.organizationId, row.grantId);
      if (!user) return false;
      return {
        accessToken,
        accessTokenExpiresAt: libraryTime(row.expiresAt),
        scope: row.scopes,
        client: { id: row.oauthClientId, grants: GRANTS },
        user,
      };
    },

    /** A refresh token used before is a replay (RFC 9700 4.14): its whole family is revoked. */
    async getRefreshToken(refreshToken: string) {
      const row = await store.findToken(refreshToken, OAuthTokenKind.REFRESH);
      if (!row || row.revokedAt) return false;
      if (row.usedAt) {
        await store.revokeGrant(row.grantId);
        return false;
      }
      const user = await memberOf(row.memberId, row.organizationId, row.grantId);
      if (!user) return false;
      return {
        refreshToken,
        refreshTokenExpiresAt: libraryTime(row.expiresAt),
        scope: row.scopes,
        client: { id: row.oauthClientId, grants: GRANTS },
        user,
        tokenId: row.id,
      };
    },

    /** Rotation: the presented refresh token stops working once the new pair is issued. */
    async revokeToken(token) {
      const tokenId = (token as { tokenId?: string }).tokenId;
      if (!tokenId) return false;
      if (await store.useRefreshToken(tokenId)) return true;
      const { grantId } = holderOf(token.user);
      if (grantId) await store.revokeGrant(grantId);
      return false;
    },
  };
}
