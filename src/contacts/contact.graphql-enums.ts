/**
 * The GraphQL names and descriptions of the enums of contact.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import { ContactSource, GalVisibility, ContactImportRowStatus } from './contact.enums.js';

registerEnumType(ContactSource, {
  name: 'ContactSource',
  description: 'Cloud (made here or in the cloud) or Synced (from an on-premises directory)',
});

registerEnumType(GalVisibility, {
  name: 'GalVisibility',
  description: 'Visible or Hidden in the global address list',
});

registerEnumType(ContactImportRowStatus, {
  name: 'ContactImportRowStatus',
  description:
    'created; duplicate (a contact of the tenant, or an earlier row, has the address: skipped); invalid',
});
