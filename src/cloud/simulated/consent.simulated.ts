import { randomUUID } from 'node:crypto';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import type {
  CloudConsentProvider,
  CloudDelegatedAccessRecord,
  CloudDelegatedCustomerPage,
} from '../consent.provider.js';
import { SimulatedCloudTenant } from './simulated-cloud.entity.js';

/**
 * One delegated admin relationship a simulated customer tenant granted to a partner organization, kept
 * after revocation (history). The simulated cloud's own table, outside any organization's scope: the
 * column is `partner_organization_id` because the row belongs to the customer's cloud, not to the partner.
 */
@Entity({ tableName: 'sim_cloud_tenant_grants' })
// At most one active relationship per tenant and partner (several partners may each hold one, as in the
// real cloud); revoked ones stay as history.
@Index({
  name: 'sim_cloud_tenant_grants_active_unique',
  expression:
    'create unique index "sim_cloud_tenant_grants_active_unique" on "sim_cloud_tenant_grants" ("tenant_external_id", "partner_organization_id") where "revoked_at" is null',
})
// A partner's active grants in tenant order: the delegated-customer list reads its page from it.
@Index({
  name: 'sim_cloud_tenant_grants_partner_index',
  expression:
    'create index "sim_cloud_tenant_grants_partner_index" on "sim_cloud_tenant_grants" ("partner_organization_id", "tenant_external_id") where "revoked_at" is null',
})
export class SimulatedTenantGrant {
  [OptionalProps]?: 'revokedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property()
  tenantExternalId!: string;

  @Property({ type: 'uuid' })
  partnerOrganizationId!: string;

  @Property({ type: 'timestamptz' })
  grantedAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null = null;
}

function recordOf(grant: SimulatedTenantGrant): CloudDelegatedAccessRecord {
  return {
    tenantExternalId: grant.tenantExternalId,
    partnerOrganizationId: grant.partnerOrganizationId,
    grantedAt: grant.grantedAt.toISOString(),
  };
}

/** What a grant or revocation did; `unknownTenant` when the simulated cloud has no such tenant. */
export type ConsentChange =
  | { outcome: 'unknownTenant' }
  | { outcome: 'granted' | 'alreadyGranted'; access: CloudDelegatedAccessRecord }
  | { outcome: 'revoked' | 'notGranted' };

/**
 * The simulated cloud's delegated admin relationships. Granting and revoking play the customer's
 * administrator: only the operator's CLI (`tenants grant` / `tenants revoke-grant`), the demo seed and
 * tests call them — no API credential of a partner can (docs/security-model.md "Tenant consent").
 */
export class SimulatedConsent implements CloudConsentProvider {
  constructor(
    private readonly em: () => EntityManager,
    private readonly clock: Clock,
  ) {}

  async getDelegatedAccess(
    tenantExternalId: string,
    partnerOrganizationId: string,
  ): Promise<CloudDelegatedAccessRecord | null> {
    const grant = await this.em().findOne(SimulatedTenantGrant, {
      tenantExternalId,
      partnerOrganizationId,
      revokedAt: null,
    });
    return grant ? recordOf(grant) : null;
  }

  /** Keyset pages by tenant id; the cursor is the last id of the page before. */
  async listDelegatedCustomers(request: {
    partnerOrganizationId: string;
    limit: number;
    cursor?: string | null;
  }): Promise<CloudDelegatedCustomerPage> {
    const rows = await this.em()
      .getConnection()
      .execute<{ tenant_external_id: string; display_name: string }[]>(
        `select g.tenant_external_id, t.display_name
           from sim_cloud_tenant_grants g
           join sim_cloud_tenants t on t.external_id = g.tenant_external_id
          where g.partner_organization_id = ? and g.revoked_at is null and g.tenant_external_id > ?
          order by g.tenant_external_id
          limit ?`,
        [request.partnerOrganizationId, request.cursor ?? '', request.limit + 1],
      );
    const items = rows.slice(0, request.limit).map((row) => ({
      tenantExternalId: row.tenant_external_id,
      displayName: row.display_name,
    }));
    return { items, nextCursor: rows.length > request.limit ? items.at(-1)!.tenantExternalId : null };
  }

  /** The customer grants the partner access. Idempotent: an active grant is returned unchanged. */
  grantDelegatedAccess(tenantExternalId: string, partnerOrganizationId: string): Promise<ConsentChange> {
    return this.em().transactional(async (em) => {
      // The tenant row is the lock: two grants at once for one tenant run one after the other.
      const tenant = await em.findOne(
        SimulatedCloudTenant,
        { externalId: tenantExternalId },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!tenant) return { outcome: 'unknownTenant' };
      const active = await em.findOne(SimulatedTenantGrant, {
        tenantExternalId,
        partnerOrganizationId,
        revokedAt: null,
      });
      if (active) return { outcome: 'alreadyGranted', access: recordOf(active) };
      const grant = em.create(SimulatedTenantGrant, {
        tenantExternalId,
        partnerOrganizationId,
        grantedAt: this.clock.now(),
      });
      await em.flush();
      return { outcome: 'granted', access: recordOf(grant) };
    });
  }

  /** The customer ends the partner's access; the partner's next sync stops. Idempotent. */
  revokeDelegatedAccess(tenantExternalId: string, partnerOrganizationId: string): Promise<ConsentChange> {
    return this.em().transactional(async (em) => {
      const tenant = await em.findOne(SimulatedCloudTenant, { externalId: tenantExternalId });
      if (!tenant) return { outcome: 'unknownTenant' };
      const revoked = await em.nativeUpdate(
        SimulatedTenantGrant,
        { tenantExternalId, partnerOrganizationId, revokedAt: null },
        { revokedAt: this.clock.now() },
      );
      return { outcome: revoked > 0 ? 'revoked' : 'notGranted' };
    });
  }
}
