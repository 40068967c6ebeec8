import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { ScopedEntity } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { ContactSource, GalVisibility } from './contact.enums.js';
import './contact.graphql-enums.js';

/**
 * A mail contact of a tenant (SPEC 2.6 "Contact"): an outside address shown in the tenant's address book.
 * Deleting is a hard delete. The address is stored lower-case and is unique among the tenant's contacts.
 */
@ObjectType({ description: 'A mail contact of a customer tenant (SPEC 2.6 "Contact")' })
@Entity({ tableName: 'contacts' })
@Index({
  name: 'contacts_email_unique',
  expression:
    'create unique index "contacts_email_unique" on "contacts" ("organization_id", "environment", "tenant_id", lower("email"))',
})
// A tenant's contacts in address-book order (GET /api/identity/contacts).
@Index({
  name: 'contacts_display_name_index',
  expression:
    'create index "contacts_display_name_index" on "contacts" ("organization_id", "environment", "tenant_id", lower("display_name"), "id")',
})
export class Contact extends ScopedEntity {
  [OptionalProps]?:
    | 'company'
    | 'jobTitle'
    | 'businessPhone'
    | 'mobilePhone'
    | 'department'
    | 'showInAddressList'
    | 'manager'
    | 'street'
    | 'city'
    | 'state'
    | 'postalCode'
    | 'country'
    | 'notes'
    | 'emailAliases'
    | 'source'
    | 'galVisibility'
    | 'createdAt'
    | 'updatedAt';

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  /** The contact's object id in the upstream cloud. */
  @Property()
  externalId!: string;

  @Field()
  @Property()
  firstName!: string;

  @Field()
  @Property()
  lastName!: string;

  @Field()
  @Property()
  displayName!: string;

  @Field({ description: 'The external mail address (lower-case); unique among the tenant’s contacts' })
  @Property()
  email!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  company: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  jobTitle: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  businessPhone: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  mobilePhone: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  department: string | null = null;

  @Field({ description: 'Shown in the global address list (default true); see galVisibility' })
  @Property({ type: 'boolean' })
  showInAddressList: boolean = true;

  @Field(() => GalVisibility, { description: 'Visible when showInAddressList, Hidden otherwise' })
  get galVisibility(): GalVisibility {
    return this.showInAddressList ? GalVisibility.VISIBLE : GalVisibility.HIDDEN;
  }

  @Field(() => String, { nullable: true, description: "The manager's name, as free text" })
  @Property({ type: 'text', nullable: true })
  manager: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  street: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  city: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  state: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  postalCode: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  country: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes: string | null = null;

  @Field(() => [String], { description: 'Other addresses of the contact (lower-case)' })
  @Property({ type: 'text[]' })
  emailAliases: string[] = [];

  @Field(() => ContactSource)
  @Enum({ items: () => ContactSource })
  source: ContactSource = ContactSource.CLOUD;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}
