import { randomUUID } from 'node:crypto';
import type { DelegatedAdminCustomer, SubscribedSku, User } from '@microsoft/microsoft-graph-types';

/**
 * The directory the Graph fake serves: app registrations (in the partner's tenant) and tenants, each with the
 * apps it consented to (and the application permissions granted), its users, SKUs and, for a partner, its
 * GDAP customers. Tests build it with the helpers below and change it between calls.
 */
export interface FakeApp {
  clientId: string;
  displayName: string;
  /** Valid client secret values; `expiredSecrets` answer AADSTS7000222. */
  secrets: string[];
  expiredSecrets: string[];
}

/** How a tenant answers a token request of an app: roles granted, consent missing, or the app unknown there. */
export type FakeConsent = { roles: string[] } | 'consent-missing';

export interface FakeUserRecord {
  user: User;
  /** The fake's change sequence number of the latest change (delta queries return changes after a token's). */
  changedAt: number;
  deleted: boolean;
}

export interface FakeTenant {
  id: string;
  displayName: string;
  /** Verified domains, the default first. */
  domains: string[];
  /** By client id; an app absent here is unknown in the tenant (AADSTS700016). */
  consents: Map<string, FakeConsent>;
  users: FakeUserRecord[];
  skus: SubscribedSku[];
  /** The partner's GDAP customers (GET /tenantRelationships/delegatedAdminCustomers). */
  customers: DelegatedAdminCustomer[];
  /** Delta tokens issued before this sequence number have expired (410). */
  deltaValidFrom: number;
  /** Users deleted for good (purged from the recycle bin): a later delta round gives `@removed: deleted`. */
  purged: Array<{ id: string; changedAt: number }>;
}

export interface IssuedToken {
  tenantId: string;
  clientId: string;
  roles: string[];
  expiresAt: number;
  /** The resource the token is for: Graph (absent) or Defender for Endpoint's API (graph-fake-defender.ts). */
  audience?: 'defender';
}

/**
 * Per-tenant state of one of the fake's areas, with WeakMap's `get`/`set`, kept on the tenant object itself
 * under a `Symbol.for` key (one registry for every realm, non-enumerable). The jest worker's shared live
 * server (test/helpers/shared-live-server.ts) serves the fake from its own copy of these modules, outside the
 * test files' vm contexts: a file seeding `fakeDirectory(tenant)` with its own copy must reach the same state
 * the server's copy answers from, which a module-level WeakMap (one per copy) would not.
 */
export interface TenantSlot<T> {
  get(tenant: FakeTenant): T | undefined;
  set(tenant: FakeTenant, value: T): void;
}

export function tenantSlot<T>(area: string): TenantSlot<T> {
  const key = Symbol.for(`msp-tests.graph-fake.${area}`);
  return {
    get: (tenant) => (tenant as unknown as Record<symbol, T | undefined>)[key],
    set: (tenant, value) => {
      Object.defineProperty(tenant, key, { value, writable: true, configurable: true, enumerable: false });
    },
  };
}

export class GraphFakeState {
  readonly apps = new Map<string, FakeApp>();
  readonly tenants = new Map<string, FakeTenant>();
  readonly tokens = new Map<string, IssuedToken>();
  /** Seconds an issued token lives (Entra's are about an hour). */
  tokenLifetimeSeconds = 3599;
  /** Items per page when the request sets no $top (Graph's default is 100; small here to exercise paging). */
  pageSize = 2;
  private sequence = 1;

  nextSequence(): number {
    return ++this.sequence;
  }

  get currentSequence(): number {
    return this.sequence;
  }

  addApp(fields: Partial<FakeApp> = {}): FakeApp {
    const app: FakeApp = {
      clientId: randomUUID(),
      displayName: 'MSP admin platform',
      secrets: [`secret~${randomUUID()}`],
      expiredSecrets: [],
      ...fields,
    };
    this.apps.set(app.clientId, app);
    return app;
  }

  addTenant(fields: Partial<Omit<FakeTenant, 'users'>> & { users?: User[] } = {}): FakeTenant {
    const id = fields.id ?? randomUUID();
    const label = `tenant${id.slice(0, 6)}`;
    const { users = [], ...rest } = fields;
    const tenant: FakeTenant = {
      displayName: `Tenant ${id.slice(0, 6)}`,
      domains: [`${label}.com`, `${label}.onmicrosoft.com`],
      consents: new Map(),
      skus: [],
      customers: [],
      deltaValidFrom: 0,
      purged: [],
      ...rest,
      id,
      users: [],
    };
    this.tenants.set(id, tenant);
    for (const user of users) this.putUser(tenant, user);
    return tenant;
  }

  /** The tenant a token request names, by id or by one of its domains. */
  findTenant(idOrDomain: string): FakeTenant | undefined {
    const wanted = idOrDomain.toLowerCase();
    for (const tenant of this.tenants.values())
      if (tenant.id === wanted || tenant.domains.includes(wanted)) return tenant;
    return undefined;
  }

  /** Adds or changes a user (a change later delta queries return). */
  putUser(tenant: FakeTenant, user: User): User {
    const id = user.id ?? randomUUID();
    const existing = tenant.users.find((record) => record.user.id === id);
    const merged: User = { ...existing?.user, ...user, id };
    if (existing) Object.assign(existing, { user: merged, changedAt: this.nextSequence(), deleted: false });
    else tenant.users.push({ user: merged, changedAt: this.nextSequence(), deleted: false });
    return merged;
  }

  deleteUser(tenant: FakeTenant, id: string): void {
    const record = tenant.users.find((candidate) => candidate.user.id === id);
    if (record) Object.assign(record, { deleted: true, changedAt: this.nextSequence() });
  }

  /** Deletes a user for good (Graph's purge of the recycle bin). */
  purgeUser(tenant: FakeTenant, id: string): void {
    const index = tenant.users.findIndex((candidate) => candidate.user.id === id);
    if (index < 0) return;
    tenant.users.splice(index, 1);
    tenant.purged.push({ id, changedAt: this.nextSequence() });
  }

  /** Every delta link issued so far expires (Graph keeps sync state for about 7 days). */
  expireDeltaLinks(tenant: FakeTenant): void {
    tenant.deltaValidFrom = this.nextSequence();
  }
}

/** A user shaped like Graph's (the fields the product selects). */
export function fakeUser(tenant: FakeTenant, name: string, fields: Partial<User> = {}): User {
  const nickname = name.toLowerCase().replace(/[^a-z0-9]+/g, '.');
  return {
    id: randomUUID(),
    displayName: name,
    userPrincipalName: `${nickname}@${tenant.domains[0]}`,
    mail: `${nickname}@${tenant.domains[0]}`,
    accountEnabled: true,
    userType: 'Member',
    usageLocation: 'US',
    assignedLicenses: [],
    ...fields,
  };
}
