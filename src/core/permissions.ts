import type { EventSubject } from './events/event-kinds.js';

/** OAuth scopes of SPEC 5.2 plus the portal permission of SPEC 5.3. */
export enum Permission {
  READ_TENANTS = 'read:tenants',
  WRITE_TENANTS = 'write:tenants',
  READ_USERS = 'read:users',
  WRITE_USERS = 'write:users',
  READ_LICENSES = 'read:licenses',
  WRITE_LICENSES = 'write:licenses',
  MSP_READ = 'msp:read',
  ADMIN = 'admin',
}

/** API key permission levels (SPEC 5.1). */
export enum PermissionLevel {
  READ = 'Read',
  WRITE = 'Write',
  ADMIN = 'Admin',
}

const READ_PERMISSIONS = [
  Permission.READ_TENANTS,
  Permission.READ_USERS,
  Permission.READ_LICENSES,
  Permission.MSP_READ,
] as const;
const WRITE_PERMISSIONS = [
  Permission.WRITE_TENANTS,
  Permission.WRITE_USERS,
  Permission.WRITE_LICENSES,
] as const;

/** What an API key of each level may do; Admin holds `admin`, which covers everything. */
export function permissionsOfLevel(level: PermissionLevel): Set<Permission> {
  switch (level) {
    case PermissionLevel.READ:
      return new Set(READ_PERMISSIONS);
    case PermissionLevel.WRITE:
      return new Set([...READ_PERMISSIONS, ...WRITE_PERMISSIONS]);
    case PermissionLevel.ADMIN:
      return new Set([...READ_PERMISSIONS, ...WRITE_PERMISSIONS, Permission.ADMIN]);
  }
}

/** A write permission implies the read permission of its family. */
export function impliedPermissions(granted: Iterable<Permission>): Set<Permission> {
  const all = new Set(granted);
  for (const permission of [...all]) {
    if (permission.startsWith('write:')) all.add(permission.replace('write:', 'read:') as Permission);
  }
  return all;
}

/** What one action needs: a permission, and for irreversible actions an Admin API key (DECISIONS). */
export interface Requirement {
  readonly permission: Permission;
  /** API keys need the Admin level; an access token needs `permission` (or `admin`). */
  readonly destructive?: boolean;
  /**
   * Only a credential of the live environment (a live Admin key, an access token from a live OAuth client):
   * for organization-wide records such as members, which a sandbox credential must not reach (issue #9).
   */
  readonly liveOnly?: boolean;
  /** With `liveOnly`: why, in the refusal's message (default: the members' reason, LIVE_AUTHORITY_MESSAGE). */
  readonly liveOnlyReason?: string;
}

export type FeatureAction = 'read' | 'write' | 'admin';

const TENANT_FAMILY = {
  read: { permission: Permission.READ_TENANTS },
  write: { permission: Permission.WRITE_TENANTS },
  admin: { permission: Permission.WRITE_TENANTS, destructive: true },
} as const;
const IDENTITY_FAMILY = {
  read: { permission: Permission.READ_USERS },
  write: { permission: Permission.WRITE_USERS },
  admin: { permission: Permission.WRITE_USERS, destructive: true },
} as const;
const SETTINGS = {
  read: { permission: Permission.READ_TENANTS },
  write: { permission: Permission.WRITE_TENANTS },
  admin: { permission: Permission.ADMIN },
} as const;
const ADMIN_ONLY = {
  read: { permission: Permission.ADMIN },
  write: { permission: Permission.ADMIN },
  admin: { permission: Permission.ADMIN },
} as const;
/** Members sign in to both environments, so changing them needs live authority (docs/security-model.md). */
const LIVE_ADMIN_ONLY = {
  read: { permission: Permission.ADMIN },
  write: { permission: Permission.ADMIN, liveOnly: true },
  admin: { permission: Permission.ADMIN, liveOnly: true },
} as const;

/**
 * The live environment's connection to the real cloud: the sandbox always acts on the simulated cloud, so a
 * sandbox credential neither reads nor changes it (DECISIONS "The upstream cloud"). Reading it needs Admin too:
 * it names the partner tenant and app, and what the app may do in every customer tenant.
 */
const CLOUD_CONNECTION_LIVE =
  'The cloud connection belongs to the live environment: use a live Admin key (svc_sk_live_) or an owner ' +
  'signed in through a live OAuth client; the sandbox always uses the simulated cloud';
const LIVE_CLOUD_CONNECTION = {
  read: { permission: Permission.ADMIN, liveOnly: true, liveOnlyReason: CLOUD_CONNECTION_LIVE },
  write: { permission: Permission.ADMIN, liveOnly: true, liveOnlyReason: CLOUD_CONNECTION_LIVE },
  admin: { permission: Permission.ADMIN, liveOnly: true, liveOnlyReason: CLOUD_CONNECTION_LIVE },
} as const;

/**
 * THE permission table: every feature area → what reading, writing and administering it needs (SPEC 5.1,
 * 5.2 and DECISIONS "OAuth scopes"). Resolvers (`@RequirePermission(FEATURES.x.read)`), the REST adapter
 * (through the resolvers' metadata), events (subscriptions and webhook delivery logs, by `EVENT_FEATURE`)
 * and docs/security-model.md all read it; nothing else decides a permission.
 */
export const FEATURES = {
  tenants: TENANT_FAMILY,
  /** Tenant feature areas fall under the tenant scopes (DECISIONS). */
  exchange: TENANT_FAMILY,
  security: TENANT_FAMILY,
  devices: TENANT_FAMILY,
  backup: TENANT_FAMILY,
  compliance: TENANT_FAMILY,
  /** Identity: users, guests, contacts, deleted users (DECISIONS). */
  identity: IDENTITY_FAMILY,
  licenses: {
    read: { permission: Permission.READ_LICENSES },
    write: { permission: Permission.WRITE_LICENSES },
    admin: { permission: Permission.WRITE_LICENSES, destructive: true },
  },
  portal: {
    read: { permission: Permission.MSP_READ },
    write: { permission: Permission.ADMIN },
    admin: { permission: Permission.ADMIN },
  },
  /** Webhooks and integrations: anyone may look and test, only Admin creates, changes and deletes. */
  webhooks: SETTINGS,
  integrations: SETTINGS,
  /** API keys, members, OAuth clients: Admin only. */
  apiKeys: ADMIN_ONLY,
  members: LIVE_ADMIN_ONLY,
  oauthClients: ADMIN_ONLY,
  /** The live environment's cloud connection (Microsoft 365 credentials): live Admin only. */
  cloudConnection: LIVE_CLOUD_CONNECTION,
} as const satisfies Record<string, Record<FeatureAction, Requirement>>;

export type Feature = keyof typeof FEATURES;

/**
 * The feature area an event is news of, by its subject (the part before the dot): reading the event needs
 * what reading that area needs. A new event subject does not compile until it has a row here.
 */
export const EVENT_FEATURE = {
  tenant: 'tenants',
  user: 'identity',
  guest: 'identity',
  license: 'licenses',
  restricted_user: 'exchange',
  alert: 'security',
  security: 'security',
  recommendation: 'security',
  device: 'devices',
  restore: 'backup',
  connector: 'integrations',
  webhook: 'webhooks',
} as const satisfies Record<EventSubject, Feature>;

/** What reading an event of this kind needs: what reading its subject's feature area needs. */
export function readRequirementOfEvent(kind: string): Requirement {
  const subject = kind.slice(0, kind.indexOf('.'));
  const feature: Feature = (EVENT_FEATURE as Record<string, Feature>)[subject] ?? 'tenants';
  return FEATURES[feature].read;
}
