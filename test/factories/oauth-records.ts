import { randomUUID } from 'node:crypto';
import type { Permission } from '../../src/core/permissions.js';
import type { Scope } from '../../src/core/scope.js';
import { MemberRole } from '../../src/members/member.enums.js';
import { MemberService } from '../../src/members/member.service.js';
import { OAuthClientService } from '../../src/oauth/oauth-client.service.js';
import { ACCESS_TOKEN_PREFIX, randomSecret } from '../../src/oauth/oauth-secrets.js';
import { OAuthStore } from '../../src/oauth/oauth-store.js';
import type { TestApp } from '../helpers/test-app.js';
import { MEMBER_PASSWORD, REDIRECT_URI, type RegisteredClient } from './oauth.js';

export async function createMember(
  app: TestApp,
  organizationId: string,
  fields: { email?: string; role?: MemberRole; password?: string } = {},
): Promise<{ id: string; email: string; password: string }> {
  const password = fields.password ?? MEMBER_PASSWORD;
  const member = await new MemberService({
    em: app.orm.em.fork(),
    scope: { organizationId },
    clock: app.clock,
  }).create({
    email: fields.email ?? `member-${randomUUID().slice(0, 8)}@example.com`,
    password,
    role: fields.role ?? MemberRole.OWNER,
  });
  return { id: member.id, email: member.email, password };
}

export async function createOAuthClient(
  app: TestApp,
  scope: Scope,
  fields: { name?: string; redirectUris?: string[] } = {},
): Promise<RegisteredClient> {
  const redirectUris = fields.redirectUris ?? [REDIRECT_URI];
  const { client: created, clientSecret } = await new OAuthClientService({
    em: app.orm.em.fork(),
    scope,
    clock: app.clock,
  }).create({ name: fields.name ?? 'Test PSA', redirectUris });
  return { id: created.id, clientId: created.clientId, clientSecret, redirectUri: redirectUris[0] };
}

/**
 * An access token with exactly these scopes, stored as the token endpoint stores one (for the scope
 * matrix, which is about enforcement, not about the flow that issues tokens).
 */
export async function issueAccessToken(
  app: TestApp,
  registered: RegisteredClient,
  member: { id: string },
  scopes: Permission[],
): Promise<string> {
  const store = new OAuthStore(app.orm, app.clock);
  const record = await store.findClient(registered.clientId);
  const accessToken = randomSecret(ACCESS_TOKEN_PREFIX);
  await store.saveTokens({
    client: record!,
    holder: { memberId: member.id, role: MemberRole.OWNER, grantId: randomUUID() },
    scopes,
    accessToken,
  });
  return accessToken;
}
