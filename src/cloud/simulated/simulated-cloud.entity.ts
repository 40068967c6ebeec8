import { randomUUID } from 'node:crypto';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/**
 * Storage of the built-in simulated upstream cloud. It stands outside any organization
 * (it plays the part of the vendor's cloud), so these tables are not scoped.
 */
@Entity({ tableName: 'sim_cloud_tenants' })
export class SimulatedCloudTenant {
  [OptionalProps]?: 'tick';

  /** The tenant id in the simulated cloud. */
  @PrimaryKey()
  externalId!: string;

  @Property()
  displayName!: string;

  @Property({ type: 'text[]' })
  domains!: string[];

  /** Seed of the tenant's deterministic generator. */
  @Property({ type: 'integer' })
  seed!: number;

  /** How many times the tenant has been advanced (one step per sync): drives deterministic drift. */
  @Property({ type: 'integer' })
  tick: number = 0;
}

export type SimulatedObjectKind =
  | 'user'
  | 'sku'
  | 'group'
  | 'membership'
  | 'assignment'
  | 'sign_in'
  /** A write made under a request key (CloudUserInput.requestKey): what it created, for a repeated key. */
  | 'write_request'
  /** A mail contact (SPEC 2.6 "Contact"). */
  | 'contact'
  /** A guest invitation mail the cloud sent (what a real cloud would put in the guest's inbox). */
  | 'invitation_mail'
  /** A mail sender the cloud restricted (SPEC 2.6 "Restricted user"). */
  | 'restricted_sender'
  /** Security (src/cloud/security.provider.ts): alerts, devices, device actions, endpoint DLP. */
  | 'alert'
  /** An investigation note sent to an alert, keyed `<alert>/<n>`. */
  | 'alert_comment'
  | 'device'
  | 'device_action'
  | 'dlp_policy'
  | 'dlp_alert'
  /** Backup and compliance connector sources (simulated-backup.ts, simulated-connector-source.ts). */
  | 'backup_protection'
  | 'backup_restore'
  | 'backup_placed_item'
  | 'backup_fault'
  | 'connector_source_fault'
  /** A security control's state and a tenant's information-barrier policy set (simulated-posture.ts). */
  | 'security_control'
  | 'barrier_policy_set'
  /** User management (src/cloud/simulated/simulated-user-management.ts). */
  | 'mailbox'
  | 'drive'
  | 'drive_item'
  | 'drive_grant'
  | 'fault'
  /** Device management (simulated-device-management.ts). */
  | 'enrollment_attempt';

/** One directory object of a simulated tenant; `data` holds the provider-shaped record. */
@Entity({ tableName: 'sim_cloud_objects' })
@Unique({ properties: ['tenantExternalId', 'kind', 'externalId'] })
export class SimulatedCloudObject {
  [OptionalProps]?: 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property()
  tenantExternalId!: string;

  @Property()
  kind!: SimulatedObjectKind;

  @Property()
  externalId!: string;

  @Property({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}
