import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { Field, ID, ObjectType } from 'type-graphql';
import { ScopedEntity, type Scope } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from './user.entity.js';

@ObjectType({ description: 'A security or Microsoft 365 group of a tenant' })
@Entity({ tableName: 'groups' })
export class Group extends ScopedEntity {
  @Field(() => ID)
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'groups_tenant_id_index' })
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Property()
  externalId!: string;

  @Field()
  @Property()
  displayName!: string;

  constructor(scope: Scope, fields: { tenantId: string; externalId: string; displayName: string }) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }
}

/** Membership of a user in a group; removed when the user is deleted (SPEC 3.4). */
@Entity({ tableName: 'group_memberships' })
@Unique({ properties: ['groupId', 'userId'] })
export class GroupMembership extends ScopedEntity {
  @ManyToOne(() => Group, { mapToPk: true, fieldName: 'group_id', deleteRule: 'cascade' })
  groupId!: string;

  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', deleteRule: 'cascade', index: true })
  userId!: string;

  constructor(scope: Scope, fields: { groupId: string; userId: string }) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }
}
