import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { MAX_CSV_ROWS } from './contact-csv.js';
import { Contact } from './contact.entity.js';
import { ContactService } from './contact.service.js';
import { ContactImportReport, ContactInput, ContactPage } from './contact.types.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);
const idArg = () => Arg('id', () => GraphQLUUID);

/**
 * Mail contacts of a tenant (SPEC 2.6 "Contact"; REST: /api/identity/contacts). read:users reads,
 * write:users creates, replaces and imports; a delete is a DELETE (Admin API key, or write:users on an
 * access token) like deleteUser.
 */
@Resolver(() => Contact)
export class ContactResolver {
  @Query(() => ContactPage, {
    description:
      'Mail contacts of a tenant by display name (A to Z); search matches part of a name or the address',
  })
  @RequirePermission(FEATURES.identity.read)
  contacts(
    @tenantIdArg() tenantId: string,
    @Args() page: PageArgs,
    @Arg('search', () => String, { nullable: true }) search: string | null,
    @Ctx() ctx: RequestContext,
  ) {
    return new ContactService(ctx).list(tenantId, page, search);
  }

  @Mutation(() => Contact, {
    description: 'Creates a mail contact; 409 when the address is already a contact of the tenant',
  })
  @RequirePermission(FEATURES.identity.write)
  createContact(
    @tenantIdArg() tenantId: string,
    @Arg('input', () => ContactInput) input: ContactInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new ContactService(ctx).create(tenantId, input);
  }

  @Mutation(() => Contact, {
    description:
      'Replaces every field of a contact (an optional field left out is cleared); 409 when the address is another contact’s',
  })
  @RequirePermission(FEATURES.identity.write)
  updateContact(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Arg('input', () => ContactInput) input: ContactInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new ContactService(ctx).update(tenantId, id, input);
  }

  @Mutation(() => Contact, { description: 'Deletes a contact for good (Admin API key)' })
  @RequirePermission(FEATURES.identity.admin)
  deleteContact(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new ContactService(ctx).delete(tenantId, id);
  }

  @Mutation(() => ContactImportReport, {
    description: `Imports contacts from CSV (header DisplayName, EmailAddress, FirstName, LastName[, Company, JobTitle, BusinessPhone]; at most ${MAX_CSV_ROWS} rows). An invalid row refuses the whole file; addresses already present are skipped`,
  })
  @RequirePermission(FEATURES.identity.write)
  importContacts(
    @tenantIdArg() tenantId: string,
    @Arg('csv', () => String) csv: string,
    @Ctx() ctx: RequestContext,
  ) {
    return new ContactService(ctx).import(tenantId, csv);
  }
}
