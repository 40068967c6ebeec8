import { Permission, PermissionLevel } from '../../src/core/permissions.js';
import type { Scope } from '../../src/core/scope.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { TestServer } from '../helpers/shared-suite.js';
import type { ItemOf } from '../helpers/api-types.js';
import {
  createApiKey,
  createMember,
  createOAuthClient,
  createUser,
  issueAccessToken,
} from '../factories/shared.js';

/** A tenant's deleted users with every field of their `deletedBy` actor (GraphQL). */
export const DELETED_USERS_WITH_ACTORS = /* GraphQL */ `
  query ($tenantId: UUID!) {
    deletedUsers(tenantId: $tenantId, limit: 100) {
      items {
        id
        deletedBy {
          type
          id
          name
          email
          oauthClientName
        }
      }
    }
  }
`;

/** The readable actor of an audit field, as REST shows it (the generated client's type); GraphQL shows the same fields. */
export type ActorBody = NonNullable<ItemOf<'listDeletedUsers'>['deletedBy']>;

/** The actor of a principal nobody can name: a purged credential, or another organization's. */
export const UNKNOWN: ActorBody = {
  type: 'UNKNOWN',
  id: null,
  name: null,
  email: null,
  oauthClientName: null,
};

/** An Admin API key with this name. */
export function namedApiKey(
  app: TestServer,
  scope: Scope,
  name: string,
): Promise<{ id: string; secret: string }> {
  return createApiKey(app, scope, PermissionLevel.ADMIN, { name });
}

/** A member signed in through an OAuth client of this name: the access token (write:users unless said) and its row id. */
export async function memberToken(
  app: TestServer,
  scope: Scope,
  fields: { email: string; clientName: string; scopes?: Permission[] },
): Promise<{ memberId: string; clientId: string; token: string; tokenId: string }> {
  const member = await createMember(app, scope.organizationId, { email: fields.email });
  const client = await createOAuthClient(app, scope, { name: fields.clientName });
  const scopes = fields.scopes ?? [Permission.READ_USERS, Permission.WRITE_USERS];
  const token = await issueAccessToken(app, client, member, scopes);
  const { rows } = await app.pool.query<{ id: string }>(
    'select id from oauth_tokens where member_id = $1 order by created_at desc limit 1',
    [member.id],
  );
  return { memberId: member.id, clientId: client.id, token, tokenId: rows[0].id };
}

/** A user of the tenant deleted `deletedAt` ago by this stored principal (written as the services write it). */
export async function userDeletedBy(
  app: TestServer,
  tenant: Tenant,
  principal: string,
  deletedAt: Date,
): Promise<string> {
  const user = await createUser(app, tenant, { deletedAt });
  await app.pool.query('update users set deleted_by = $2 where id = $1', [user.id, principal]);
  return user.id;
}

/** The actor an API key of createOrganizationWithKeys shows (its keys are named "Read key", "Write key", "Admin key"). */
export function apiKeyActor(name: string = expect.any(String) as unknown as string): ActorBody {
  return {
    type: 'API_KEY',
    id: expect.any(String) as unknown as string,
    name,
    email: null,
    oauthClientName: null,
  };
}
