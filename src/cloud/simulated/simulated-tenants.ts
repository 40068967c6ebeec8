import { randomUUID } from 'node:crypto';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { CloudTenantRecord, CloudSignInRecord, CloudUserRecord } from '../provider.js';
import { securityObjectsOf } from './security.simulated.js';
import {
  SimulatedCloudObject,
  SimulatedCloudTenant,
  type SimulatedObjectKind,
} from './simulated-cloud.entity.js';
import { generateDirectory, generateSignInBatch } from './simulated-cloud.generator.js';
import { generateSyncedContacts } from './simulated-contacts.generator.js';
import { enrollmentObjectsOf } from './simulated-device-management.js';
import { generateRestrictedSenders } from './simulated-restricted-senders.js';
import type { GeneratedDirectory, SimulatedTenantSpec } from './simulated-tenant-spec.js';
import { cloudObjectNotFound, INSERT_CHUNK, type SimulatedObjectStore } from './simulated-object-store.js';

/** The simulated cloud's tenants: created with a generated directory, and time passing upstream (sign-ins). */
export class SimulatedTenants {
  constructor(private readonly store: SimulatedObjectStore) {}

  /**
   * Creates a tenant in the simulated cloud with a generated directory (simulated-cloud.generator.ts),
   * written with a few multi-row INSERTs in one transaction. A tenant that already exists is left as it
   * is (`created: false`), so seeding twice or from two processes at once is harmless.
   */
  async createTenant(spec: SimulatedTenantSpec): Promise<{ tenant: CloudTenantRecord; created: boolean }> {
    const directory = await generateDirectory(spec, this.store.clock.now());
    const created = await this.store.em().transactional((em) => this.writeDirectory(em, directory));
    return { tenant: directory.tenant, created };
  }

  /** The tenants that already have one of `domains` (a domain belongs to one tenant of the cloud). */
  async tenantsWithDomains(
    domains: string[],
  ): Promise<Array<{ externalId: string; displayName: string; domains: string[] }>> {
    const rows = await this.store
      .em()
      .getConnection()
      .execute<{ external_id: string; display_name: string; domains: string[] }[]>(
        'select external_id, display_name, domains from sim_cloud_tenants where domains && array[?]::text[]',
        [domains],
      );
    return rows.map((row) => ({
      externalId: row.external_id,
      displayName: row.display_name,
      domains: row.domains,
    }));
  }

  /**
   * A `.onmicrosoft.com` initial domain no tenant has yet, from `label` (`label`, `label2`, `label3`…), as the
   * real cloud makes a customer pick one that is free: a new tenant named like a demo one got the demo's
   * initial domain, and its admin and guests collided with the demo tenant's users at the first sync.
   */
  async freeInitialDomain(label: string): Promise<string> {
    const base = label.replace(/[^a-z0-9]/g, '').slice(0, 24) || 'tenant';
    const rows = await this.store
      .em()
      .getConnection()
      .execute<{ domain: string }[]>(
        'select d as domain from sim_cloud_tenants, unnest(domains) d where d like ?',
        [`${base}%.onmicrosoft.com`],
      );
    const taken = new Set(rows.map((row) => row.domain));
    for (let n = 1; ; n++) {
      const candidate = `${base}${n === 1 ? '' : n}.onmicrosoft.com`;
      if (!taken.has(candidate)) return candidate;
    }
  }

  private async writeDirectory(em: EntityManager, directory: GeneratedDirectory): Promise<boolean> {
    const { tenant } = directory;
    const inserted = await em
      .createQueryBuilder(SimulatedCloudTenant)
      .insert({
        externalId: tenant.externalId,
        displayName: tenant.displayName,
        domains: tenant.domains,
        seed: directory.seed,
        tick: 0,
      })
      .onConflict('externalId')
      .ignore()
      .execute('run');
    if (!inserted.affectedRows) return false;
    const updatedAt = this.store.clock.now();
    const row = (kind: SimulatedObjectKind, externalId: string, data: object) => ({
      id: randomUUID(),
      tenantExternalId: tenant.externalId,
      kind,
      externalId,
      data: data as Record<string, unknown>,
      updatedAt,
    });
    const rows = [
      ...directory.users.map((user) => row('user', user.externalId, user)),
      ...directory.skus.map((sku) => row('sku', sku.skuId, sku)),
      ...directory.groups.map((group) => row('group', group.externalId, group)),
      ...directory.assignments.map((a) => row('assignment', `${a.userExternalId}:${a.skuId}`, a)),
      ...directory.signIns.map((signIn) => row('sign_in', signIn.id, signIn)),
      ...generateRestrictedSenders(directory.users, directory.seed, updatedAt).map((sender) =>
        row('restricted_sender', sender.externalId, sender),
      ),
      ...generateSyncedContacts(directory.users, directory.seed, updatedAt).map((contact) =>
        row('contact', contact.externalId, contact),
      ),
      ...securityObjectsOf(directory.users, directory.seed, updatedAt).map((o) =>
        row(o.kind, o.externalId, o.data),
      ),
      ...enrollmentObjectsOf(tenant.externalId, directory.users, updatedAt).map((o) =>
        row(o.kind, o.externalId, o.data),
      ),
    ];
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await em.insertMany(SimulatedCloudObject, rows.slice(start, start + INSERT_CHUNK));
    }
    return true;
  }

  /**
   * Lets time pass upstream by one step: a few people sign in now (one of them riskily, from an
   * unfamiliar place) and their lastSignInAt moves. Deterministic per tenant seed and step (`tick`).
   * Sync never calls this (a sync with no upstream change changes nothing); tests and demos do.
   */
  async advance(tenantExternalId: string): Promise<CloudSignInRecord[]> {
    return this.store.em().transactional(async (em) => {
      const tenant = await em.findOne(
        SimulatedCloudTenant,
        { externalId: tenantExternalId },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!tenant) throw cloudObjectNotFound('tenant', tenantExternalId);
      tenant.tick += 1;
      const userRows = await em.find(SimulatedCloudObject, { tenantExternalId, kind: 'user' });
      const users = userRows.map((userRow) => userRow.data as unknown as CloudUserRecord);
      const signIns = await generateSignInBatch(users, tenant.seed, tenant.tick, this.store.clock.now());
      const byUpn = new Map(userRows.map((userRow) => [String(userRow.data.userPrincipalName), userRow]));
      for (const signIn of signIns) {
        const userRow = byUpn.get(signIn.userPrincipalName)!;
        const last = userRow.data.lastSignInAt as string | null;
        if (!last || last < signIn.createdAt) {
          userRow.data = { ...userRow.data, lastSignInAt: signIn.createdAt };
          userRow.updatedAt = this.store.clock.now();
        }
        em.create(SimulatedCloudObject, {
          tenantExternalId,
          kind: 'sign_in',
          externalId: signIn.id,
          data: { ...signIn },
          updatedAt: this.store.clock.now(),
        });
      }
      await em.flush();
      return signIns;
    });
  }
}
