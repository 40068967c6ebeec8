import type { CloudContactRecord, CloudUserRecord } from '../provider.js';
import { seededRandom } from './seeded-random.js';

/** Outside people a hybrid tenant's on-premises directory typically carries as mail contacts. */
const PARTNERS = [
  { company: 'Contoso Legal LLP', domain: 'contoso-legal.example', title: 'Partner' },
  { company: 'Fabrikam Supplies', domain: 'fabrikam-supplies.example', title: 'Account Manager' },
  { company: 'Tailspin Auditing', domain: 'tailspin-audit.example', title: 'Senior Auditor' },
  { company: 'Litware Insurance', domain: 'litware-insurance.example', title: 'Broker' },
  { company: 'Proseware Logistics', domain: 'proseware-logistics.example', title: 'Dispatcher' },
];
const FIRST_NAMES = ['Avery', 'Jordan', 'Morgan', 'Riley', 'Casey', 'Quinn', 'Rowan', 'Emerson'];
const LAST_NAMES = ['Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Haddad', 'Novak', 'Brennan', 'Castillo'];

/**
 * Mail contacts synced from a generated hybrid tenant's on-premises directory (a tenant with synced users): two to
 * five partner contacts, `onPremisesSynced`. Drawn with a PRNG of their own after everything else, so the rest of
 * the generated tenant is exactly what it was before contacts were generated; none for a cloud-only tenant.
 */
export function generateSyncedContacts(
  users: CloudUserRecord[],
  seed: number,
  referenceDate: Date,
): CloudContactRecord[] {
  if (!users.some((user) => user.onPremisesSynced)) return [];
  const random = seededRandom(seed ^ 0xc0a7ac7);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const count = 2 + Math.floor(random() * 4);
  const contacts: CloudContactRecord[] = [];
  const taken = new Set<string>();
  while (contacts.length < count) {
    const partner = pick(PARTNERS);
    const firstName = pick(FIRST_NAMES);
    const lastName = pick(LAST_NAMES);
    const mail = `${firstName}.${lastName}@${partner.domain}`.toLowerCase();
    if (taken.has(mail)) continue;
    taken.add(mail);
    const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
    contacts.push({
      externalId: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-b${hex.slice(17, 20)}-${hex.slice(20)}`,
      displayName: `${firstName} ${lastName} (${partner.company})`,
      firstName,
      lastName,
      mail,
      companyName: partner.company,
      jobTitle: partner.title,
      businessPhone: null,
      mobilePhone: null,
      department: null,
      hiddenFromAddressLists: false,
      manager: null,
      streetAddress: null,
      city: null,
      state: null,
      postalCode: null,
      country: null,
      notes: 'Synced from the on-premises directory',
      proxyAddresses: [],
      onPremisesSynced: true,
      createdAt: new Date(referenceDate.getTime() - Math.floor(random() * 365) * 86_400_000).toISOString(),
    });
  }
  return contacts;
}
