import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Property, Unique } from '@mikro-orm/decorators/legacy';
import { ScopedEntity } from '../core/scope.js';
import { CloudProviderKind } from './cloud-connection.enums.js';

/**
 * The cloud an organization's live environment acts on (one per organization and environment; only the live
 * environment has one, the sandbox always uses the simulated cloud). Microsoft 365: the partner tenant and
 * the multi-tenant app registered there, its client secret sealed with the server's secret box (like
 * connector credentials) and never returned. Stored only after a test with these credentials passed.
 */
@Entity({ tableName: 'cloud_connections' })
@Unique({ properties: ['organizationId', 'environment'] })
export class CloudConnection extends ScopedEntity {
  [OptionalProps]?: 'partnerTenantId' | 'clientId' | 'clientSecret' | 'grantedPermissions';

  @Enum({ items: () => CloudProviderKind })
  provider!: CloudProviderKind;

  /** Microsoft 365: the partner's tenant id (or its initial domain); null for the simulated cloud. */
  @Property({ type: 'string', nullable: true })
  partnerTenantId: string | null = null;

  /** Microsoft 365: the application (client) id of the multi-tenant app. */
  @Property({ type: 'string', nullable: true })
  clientId: string | null = null;

  /** Microsoft 365: the client secret, sealed (`enc:v1:`, core/secret-box.ts); never leaves the server. */
  @Property({ type: 'text', nullable: true, lazy: true })
  clientSecret: string | null = null;

  /** The application permissions the partner tenant's token carried (its `roles` claim) at the last test. */
  @Property({ type: 'text[]' })
  grantedPermissions: string[] = [];

  /** The last test: when, whether it passed, and what failed (a saved connection passed at least once). */
  @Property({ type: 'timestamptz' })
  lastTestedAt!: Date;

  @Property()
  lastTestSucceeded!: boolean;

  @Property({ type: 'text', nullable: true })
  lastTestMessage: string | null = null;

  @Property({ type: 'string' })
  connectedBy!: string;

  @Property({ type: 'timestamptz' })
  connectedAt!: Date;
}
