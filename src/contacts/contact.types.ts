import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../core/pagination.js';
import { Contact } from './contact.entity.js';
import { ContactImportRowStatus } from './contact.enums.js';
import { MAX_EMAIL_ALIASES } from './contact.validation.js';
import './contact.graphql-enums.js';

export const ContactPage = PageOf(Contact, 'Contact');

/**
 * SPEC 2.6 "Contact" as a client writes it: createContact takes it, and updateContact (PUT) takes it whole
 * (a full replacement: an optional field left out is cleared, showInAddressList goes back to true). The
 * service checks the values (ContactService, contact.validation.ts) so the CSV import shares the rules.
 */
@InputType({ description: 'A mail contact (SPEC 2.6 "Contact"); an update replaces every field' })
export class ContactInput {
  @Field()
  firstName!: string;

  @Field()
  lastName!: string;

  @Field()
  displayName!: string;

  @Field({ description: 'The external mail address; unique among the tenant’s contacts (case-insensitive)' })
  email!: string;

  @Field(() => String, { nullable: true })
  company?: string | null;

  @Field(() => String, { nullable: true })
  jobTitle?: string | null;

  @Field(() => String, { nullable: true })
  businessPhone?: string | null;

  @Field(() => String, { nullable: true })
  mobilePhone?: string | null;

  @Field(() => String, { nullable: true })
  department?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Shown in the global address list (default true)' })
  showInAddressList?: boolean | null;

  @Field(() => String, { nullable: true })
  manager?: string | null;

  @Field(() => String, { nullable: true })
  street?: string | null;

  @Field(() => String, { nullable: true })
  city?: string | null;

  @Field(() => String, { nullable: true })
  state?: string | null;

  @Field(() => String, { nullable: true })
  postalCode?: string | null;

  @Field(() => String, { nullable: true })
  country?: string | null;

  @Field(() => String, { nullable: true })
  notes?: string | null;

  @Field(() => [String], {
    nullable: true,
    description: `Other addresses of the contact (at most ${MAX_EMAIL_ALIASES})`,
  })
  emailAliases?: string[] | null;
}

@ObjectType({ description: 'A field (a CSV column in an import) and what is wrong with it' })
export class ContactFieldProblem {
  @Field()
  field!: string;

  @Field()
  problem!: string;
}

@ObjectType({ description: 'What the bulk import did with one CSV row' })
export class ContactImportRow {
  @Field(() => Int, { description: 'The line of the file the row starts on (the header is line 1)' })
  line!: number;

  @Field(() => String, {
    nullable: true,
    description: 'The row’s EmailAddress (lower-case), when it has one',
  })
  email!: string | null;

  @Field(() => ContactImportRowStatus)
  status!: ContactImportRowStatus;

  @Field(() => ID, {
    nullable: true,
    description: 'created: the new contact; duplicate of an existing contact: that contact',
  })
  contactId!: string | null;

  @Field(() => [ContactFieldProblem])
  errors!: ContactFieldProblem[];
}

@ObjectType({ description: 'The outcome of a bulk import of contacts (CSV)' })
export class ContactImportReport {
  @Field(() => Int)
  created!: number;

  @Field(() => Int, {
    description: 'Rows whose address is already a contact of the tenant (or an earlier row)',
  })
  skipped!: number;

  @Field(() => Int, { description: 'Always 0: a file with an invalid row is refused whole (400)' })
  failed!: number;

  @Field(() => [ContactImportRow])
  rows!: ContactImportRow[];
}
