/** SPEC 2.6 "Contact": where a contact lives. Ours are made in the cloud; Synced ones come from on-premises. */
export enum ContactSource {
  CLOUD = 'Cloud',
  SYNCED = 'Synced',
}

/** SPEC 2.6 "Contact": whether the contact is shown in the global address list (from showInAddressList). */
export enum GalVisibility {
  VISIBLE = 'Visible',
  HIDDEN = 'Hidden',
}

/** What the bulk import did with one CSV row. */
export enum ContactImportRowStatus {
  CREATED = 'created',
  DUPLICATE = 'duplicate',
  INVALID = 'invalid',
}
