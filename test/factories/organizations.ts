import { randomUUID } from 'node:crypto';
import { ApiKeyService } from '../../src/api-keys/api-key.service.js';
import { PermissionLevel } from '../../src/core/permissions.js';
import { Environment } from '../../src/core/environment.js';
import type { Scope } from '../../src/core/scope.js';
import { Organization, Plan } from '../../src/organizations/organization.entity.js';
import type { TestApp } from '../helpers/test-app.js';

export interface OrganizationWithKeys {
  organization: Organization;
  /** The sandbox scope (svc_sk_test_ keys), where most tests work. */
  scope: Scope;
  liveScope: Scope;
  /** Sandbox keys by level. */
  keys: Record<'read' | 'write' | 'admin', string>;
  /** A live Admin key. */
  liveAdminKey: string;
}

export async function createOrganization(
  app: TestApp,
  fields: { plan?: Plan; slug?: string; customRateLimitPerMinute?: number | null } = {},
): Promise<Organization> {
  const em = app.orm.em.fork();
  const slug = fields.slug ?? `org-${randomUUID().slice(0, 8)}`;
  const organization = new Organization({
    slug,
    name: `Organization ${slug}`,
    plan: fields.plan ?? Plan.SCALE,
    createdAt: app.clock.now(),
    customRateLimitPerMinute: fields.customRateLimitPerMinute ?? null,
  });
  await em.persist(organization).flush();
  return organization;
}

export async function createApiKey(
  app: TestApp,
  scope: Scope,
  level: PermissionLevel,
  extra: { allowedIps?: string[]; name?: string } = {},
): Promise<{ id: string; secret: string }> {
  const { apiKey, secret } = await new ApiKeyService({
    em: app.orm.em.fork(),
    scope,
    clock: app.clock,
  }).create({
    name: extra.name ?? `${level} key`,
    level,
    allowedIps: extra.allowedIps,
  });
  return { id: apiKey.id, secret };
}

/** An organization (plan Scale unless said) with sandbox keys of every level and a live Admin key. */
export async function createOrganizationWithKeys(
  app: TestApp,
  fields: { plan?: Plan; customRateLimitPerMinute?: number | null } = {},
): Promise<OrganizationWithKeys> {
  const organization = await createOrganization(app, fields);
  const scope: Scope = { organizationId: organization.id, environment: Environment.SANDBOX };
  const liveScope: Scope = { organizationId: organization.id, environment: Environment.LIVE };
  const [read, write, admin, live] = await Promise.all([
    createApiKey(app, scope, PermissionLevel.READ),
    createApiKey(app, scope, PermissionLevel.WRITE),
    createApiKey(app, scope, PermissionLevel.ADMIN),
    createApiKey(app, liveScope, PermissionLevel.ADMIN),
  ]);
  return {
    organization,
    scope,
    liveScope,
    keys: { read: read.secret, write: write.secret, admin: admin.secret },
    liveAdminKey: live.secret,
  };
}
