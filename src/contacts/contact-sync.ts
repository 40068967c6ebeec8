import type { MikroORM } from '@mikro-orm/postgresql';
import type { CronItem, Task } from 'graphile-worker';
import type { CloudContactRecord } from '../cloud/provider.js';
import type { AppDeps, ServiceContext } from '../core/service-context.js';
import type { SyncStep, SyncTenant } from '../sync/sync-step.js';
import { forEveryTenant } from '../tenants/every-tenant.js';
import { Contact } from './contact.entity.js';
import { syncedFieldsOf, type SyncedContactFields } from './contact-cloud.js';
import { allPages } from '../cloud/pages.js';

export const CONTACT_SYNC_TASK = 'contacts.sync';

/** SPEC 8.3 "Synced contact sync cycle: 30 minutes": on one process of the fleet, every half hour. */
export const CONTACT_SYNC_CRON: CronItem = {
  task: CONTACT_SYNC_TASK,
  match: '*/30 * * * *',
  identifier: CONTACT_SYNC_TASK,
  options: { backfillPeriod: 0, maxAttempts: 3 },
};

export interface ContactSyncSummary {
  created: number;
  updated: number;
  deleted: number;
  /** Upstream contacts left out because their address is another contact's here (the next cycle tries again). */
  skipped: number;
}

const differs = (contact: Contact, fields: SyncedContactFields) =>
  (Object.keys(fields) as Array<keyof SyncedContactFields>).some(
    (key) => JSON.stringify(contact[key] ?? null) !== JSON.stringify(fields[key] ?? null),
  );

/**
 * Brings one tenant's contacts in line with the cloud (SPEC 8.3, docs/identity.md "Contact sync"): contacts synced
 * from on premises arrive as `Synced` (read-only here), changes made upstream are copied, contacts gone upstream
 * are removed. One transaction; removals first, so an address freed upstream can be taken by a new contact in the
 * same pass. An upstream contact whose address another contact here still holds is skipped, not fatal.
 */
export async function syncTenantContacts(
  ctx: ServiceContext,
  tenant: Pick<SyncTenant, 'id' | 'externalId'>,
  /** Read already (tenant sync reads the whole tenant before its transaction); else read here. */
  read?: CloudContactRecord[],
): Promise<ContactSyncSummary> {
  const upstream =
    read ?? (await allPages((await ctx.cloud.forTenant(tenant.externalId)).contacts.listContacts()));
  const summary: ContactSyncSummary = { created: 0, updated: 0, deleted: 0, skipped: 0 };
  await ctx.em.transactional(async (em) => {
    const ours = await em.find(Contact, { tenantId: tenant.id }, { refresh: true });
    const upstreamIds = new Set(upstream.map((record) => record.externalId));
    const gone = ours.filter((contact) => !upstreamIds.has(contact.externalId));
    if (gone.length > 0) {
      await em.nativeDelete(Contact, { tenantId: tenant.id, id: { $in: gone.map((contact) => contact.id) } });
      summary.deleted = gone.length;
    }
    const kept = new Map(
      ours.filter((contact) => upstreamIds.has(contact.externalId)).map((c) => [c.externalId, c]),
    );
    // Which contact holds each address once this pass is done: a clash is skipped instead of failing the flush.
    const holderOf = new Map([...kept.values()].map((contact) => [contact.email, contact.externalId]));
    const now = ctx.clock.now();
    for (const record of upstream) {
      const fields = syncedFieldsOf(record);
      const holder = holderOf.get(fields.email);
      if (holder !== undefined && holder !== record.externalId) {
        summary.skipped += 1;
        continue;
      }
      const existing = kept.get(record.externalId);
      if (existing) {
        if (!differs(existing, fields)) continue;
        holderOf.delete(existing.email);
        em.assign(existing, { ...fields, updatedAt: now });
        summary.updated += 1;
      } else {
        em.create(Contact, {
          ...ctx.scope,
          ...fields,
          tenantId: tenant.id,
          externalId: record.externalId,
          createdAt: new Date(record.createdAt),
          updatedAt: now,
        });
        summary.created += 1;
      }
      holderOf.set(fields.email, record.externalId);
    }
    await em.flush();
  });
  return summary;
}

/**
 * The contacts of a tenant sync (also synced every 30 minutes on their own). Its counts are not part of the
 * sync's summary, whose shape stays as it was: the 30-minute job reports them.
 */
export const contactsSyncStep: SyncStep = {
  name: 'contacts',
  inSummary: false,
  async read({ cloud }) {
    const contacts = await allPages(cloud.contacts.listContacts());
    return async ({ ctx, tenant }) => ({ ...(await syncTenantContacts(ctx, tenant, contacts)) });
  },
};

/** Every tenant of every organization (forEveryTenant: a tenant that withdrew its grant keeps its contacts). */
export async function syncEveryTenantsContacts(orm: MikroORM, deps: AppDeps): Promise<ContactSyncSummary> {
  const total: ContactSyncSummary = { created: 0, updated: 0, deleted: 0, skipped: 0 };
  await forEveryTenant(orm, deps, 'system:contact-sync', async (ctx, tenant) => {
    const summary = await syncTenantContacts(ctx, tenant);
    for (const key of Object.keys(total) as Array<keyof ContactSyncSummary>) total[key] += summary[key];
  });
  return total;
}

export function contactSyncTask(orm: MikroORM, deps: AppDeps): Task {
  return async (_payload, helpers) => {
    const summary = await syncEveryTenantsContacts(orm, deps);
    helpers.logger.info(`contact sync: ${JSON.stringify(summary)}`);
  };
}
