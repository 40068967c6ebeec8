import { registerEnumType } from 'type-graphql';

/** SPEC 2.6 "Contact": where a contact lives. Ours are made in the cloud; Synced ones come from on-premises. */
export enum ContactSource {
  CLOUD = 'Cloud',
  SYNCED = 'Synced',
}
registerEnumType(ContactSource, {
  name: 'ContactSource',
  description: 'Cloud (made here or in the cloud) or Synced (from an on-premises directory)',
});

/** SPEC 2.6 "Contact": whether the contact is shown in the global address list (from showInAddressList). */
export enum GalVisibility {
  VISIBLE = 'Visible',
  HIDDEN = 'Hidden',
}
registerEnumType(GalVisibility, {
  name: 'GalVisibility',
  description: 'Visible or Hidden in the global address list',
});

/** What the bulk import did with one CSV row. */
export enum ContactImportRowStatus {
  CREATED = 'created',
  DUPLICATE = 'duplicate',
  INVALID = 'invalid',
}
registerEnumType(ContactImportRowStatus, {
  name: 'ContactImportRowStatus',
  description:
    'created; duplicate (a contact of the tenant, or an earlier row, has the address: skipped); invalid',
});
