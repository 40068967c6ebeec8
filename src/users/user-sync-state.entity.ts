import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { ScopedEntity, type Scope } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';

/**
 * Where a tenant's user sync stands with its cloud (one row per tenant, written by the sync's users step in
 * the sync's transaction): the cursor the next round starts from (Graph's deltaLink), and whether the last
 * round had sign-in data (the stale-guests answer says so when it had not).
 */
@Entity({ tableName: 'user_sync_states' })
export class UserSyncState extends ScopedEntity {
  [OptionalProps]?: 'deltaCursor' | 'signInDataUnavailable';

  @ManyToOne(() => Tenant, {
    mapToPk: true,
    fieldName: 'tenant_id',
    deleteRule: 'cascade',
    unique: true,
  })
  tenantId!: string;

  /** The cloud's cursor of the next round (null: the next round reads every user). */
  @Property({ type: 'text', nullable: true })
  deltaCursor: string | null = null;

  /** Why the last round had no sign-in data (null: it had). */
  @Property({ type: 'text', nullable: true })
  signInDataUnavailable: string | null = null;

  @Property({ type: 'timestamptz' })
  updatedAt!: Date;

  constructor(scope: Scope, fields: { tenantId: string; updatedAt: Date }) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }
}
