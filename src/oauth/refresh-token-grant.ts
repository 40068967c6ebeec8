import { createRequire } from 'node:module';
import OAuth2Server from '@node-oauth/oauth2-server';

type Request = OAuth2Server.Request;
type Client = OAuth2Server.Client;
type RefreshToken = OAuth2Server.RefreshToken;
type Token = OAuth2Server.Token;

/** The parts of the library's refresh_token grant (not exported by its index, nor typed) used here. */
interface LibraryRefreshTokenGrantType {
  model: OAuth2Server.RefreshTokenModel;
  getRefreshToken(request: Request, client: Client): Promise<RefreshToken>;
  revokeToken(token: RefreshToken): Promise<RefreshToken>;
  saveToken(user: OAuth2Server.User, client: Client, scope: string[] | undefined): Promise<Token>;
  validateScope(user: OAuth2Server.User, client: Client, scope?: string[]): Promise<string[]>;
}
type LibraryRefreshTokenGrantTypeClass = new (options: object) => LibraryRefreshTokenGrantType;

const require = createRequire(import.meta.url);
const LibraryRefreshTokenGrant =
  require('@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type.js') as LibraryRefreshTokenGrantTypeClass;
const { parseScope } = require('@node-oauth/oauth2-server/lib/utils/scope-util.js') as {
  parseScope(scope: unknown): string[] | undefined;
};

/**
 * The library's refresh_token grant, with the requested scope checked *before* the presented refresh
 * token is rotated. The library rotates first (model.revokeToken marks the token used) and checks the
 * scope afterwards, so a refresh refused with invalid_scope would burn the token, and the client's next,
 * correct refresh would look like a replay and revoke the whole grant. RFC 6749 5.2: a refused request
 * changes nothing, the refresh token stays valid.
 *
 * The scope is normalized as at the authorize endpoint (model.validateScope: known scopes only, repeats
 * dropped, canonical order, and what the member's current role may grant), then must be a subset of
 * what the refresh token holds. No scope asked: the token's own scopes.
 */
export class ScopeCheckedRefreshTokenGrantType extends LibraryRefreshTokenGrant {
  async handle(request: Request, client: Client): Promise<Token> {
    const token = await this.getRefreshToken(request, client);
    const scope = await this.narrowedScope(request, client, token);
    await this.revokeToken(token);
    return this.saveToken(token.user, client, scope);
  }

  private async narrowedScope(request: Request, client: Client, token: RefreshToken): Promise<string[]> {
    const held = token.scope ?? [];
    const requested = parseScope(request.body.scope);
    if (!requested) return held;
    const scopes = await this.validateScope(token.user, client, requested);
    if (!scopes.every((scope) => held.includes(scope)))
      throw new OAuth2Server.InvalidScopeError('Invalid scope: Unable to add extra scopes');
    return scopes;
  }
}
