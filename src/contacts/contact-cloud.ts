import type { CloudContactInput, CloudContactRecord } from '../cloud/provider.js';
import type { Contact } from './contact.entity.js';
import { ContactSource } from './contact.enums.js';
import type { ContactValues } from './contact.validation.js';

/**
 * Our contact fields and the cloud's, both ways, in one place: writes send `cloudInputOf` (ContactService), the
 * contact sync reads `syncedFieldsOf` (contact-sync.ts).
 */

export const cloudInputOf = (values: ContactValues): CloudContactInput => ({
  displayName: values.displayName,
  firstName: values.firstName,
  lastName: values.lastName,
  mail: values.email,
  companyName: values.company,
  jobTitle: values.jobTitle,
  businessPhone: values.businessPhone,
  mobilePhone: values.mobilePhone,
  department: values.department,
  hiddenFromAddressLists: !values.showInAddressList,
  manager: values.manager,
  streetAddress: values.street,
  city: values.city,
  state: values.state,
  postalCode: values.postalCode,
  country: values.country,
  notes: values.notes,
  proxyAddresses: values.emailAliases,
});

/** What the cloud decides about a contact: its editable values and where it comes from. */
export type SyncedContactFields = ContactValues & Pick<Contact, 'source'>;

/** The cloud's contact in our fields (the inverse of `cloudInputOf`, addresses lower-case as we store them). */
export function syncedFieldsOf(record: CloudContactRecord): SyncedContactFields {
  return {
    firstName: record.firstName,
    lastName: record.lastName,
    displayName: record.displayName,
    email: record.mail.toLowerCase(),
    company: record.companyName,
    jobTitle: record.jobTitle,
    businessPhone: record.businessPhone,
    mobilePhone: record.mobilePhone,
    department: record.department,
    showInAddressList: !record.hiddenFromAddressLists,
    manager: record.manager,
    street: record.streetAddress,
    city: record.city,
    state: record.state,
    postalCode: record.postalCode,
    country: record.country,
    notes: record.notes,
    emailAliases: record.proxyAddresses.map((alias) => alias.toLowerCase()),
    source: record.onPremisesSynced ? ContactSource.SYNCED : ContactSource.CLOUD,
  };
}
