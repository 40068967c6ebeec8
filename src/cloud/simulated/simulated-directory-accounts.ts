import { CONSUMER_MAIL_DOMAINS, SERVICE_ACCOUNTS } from './simulated-cloud.catalog.js';
import { DAY_MS, HOUR_MS, mailLocalPart, type DirectoryBuilder } from './simulated-directory-builder.js';

/* The accounts of a generated directory that are not its staff (simulated-directory-builder.ts). */

/** Non-human members: interactive sign-in blocked, no licenses (SPEC 2.3). */
export function addServiceAccounts(b: DirectoryBuilder): void {
  const f = b.f;
  const chosen = f.helpers.arrayElements(SERVICE_ACCOUNTS, { min: 2, max: 4 });
  for (const account of chosen) {
    b.add(
      {
        externalId: f.string.uuid(),
        userPrincipalName: b.uniqueUpn(account.localPart, b.defaultDomain),
        displayName: account.displayName,
        firstName: account.displayName,
        lastName: '',
        jobTitle: account.jobTitle,
        department: 'IT',
        companyName: b.spec.displayName,
        officeLocation: null,
        businessPhone: null,
        mobilePhone: null,
        employeeId: null,
        employeeType: null,
        managerExternalId: null,
        usageLocation: f.datatype.boolean(0.5) ? b.country : null,
        accountEnabled: false,
        mfaStatus: 'Disabled',
        userType: 'Member',
        onPremisesSynced: false,
        isServiceAccount: true,
        lastSignInAt: null,
        createdAt: new Date(b.ago(200 * DAY_MS, 4 * 365 * DAY_MS)).toISOString(),
        deletedAt: null,
      },
      { department: 'IT', office: null, leader: false, breakGlass: false },
    );
  }
}

/** B2B guests: `name_example.com#EXT#@tenant.onmicrosoft.com`; about a third have gone stale (90+ days). */
export function addGuests(b: DirectoryBuilder): void {
  const f = b.f;
  const count = Math.max(2, Math.round((b.spec.employees ?? 40) * 0.12));
  for (let i = 0; i < count; i++) {
    const firstName = f.person.firstName();
    const lastName = f.person.lastName();
    const partner = f.datatype.boolean(0.5);
    const mailDomain = partner ? f.internet.domainName() : f.helpers.arrayElement(CONSUMER_MAIL_DOMAINS);
    const mail = `${mailLocalPart(firstName, lastName)}@${mailDomain}`;
    const createdAt = b.ago(30 * DAY_MS, 900 * DAY_MS);
    const signIn = f.helpers.weightedArrayElement([
      { weight: 45, value: 'recent' as const },
      { weight: 35, value: 'stale' as const },
      { weight: 20, value: 'never' as const },
    ]);
    const lastSignInAt =
      signIn === 'never'
        ? null
        : signIn === 'stale'
          ? Math.max(createdAt + HOUR_MS, b.ago(95 * DAY_MS, 400 * DAY_MS))
          : Math.max(createdAt + HOUR_MS, b.ago(HOUR_MS, 30 * DAY_MS));
    b.add(
      {
        externalId: f.string.uuid(),
        userPrincipalName: b.uniqueUpn(`${mail.replace('@', '_')}#EXT#`, b.initialDomain),
        displayName: `${firstName} ${lastName}`,
        firstName,
        lastName,
        jobTitle: null,
        department: null,
        companyName: partner ? f.company.name() : null,
        officeLocation: null,
        businessPhone: null,
        mobilePhone: null,
        employeeId: null,
        employeeType: null,
        managerExternalId: null,
        usageLocation: null,
        accountEnabled: true,
        mfaStatus: f.datatype.boolean(0.2) ? 'Enabled' : 'Disabled',
        userType: 'Guest',
        onPremisesSynced: false,
        isServiceAccount: false,
        lastSignInAt: lastSignInAt === null ? null : new Date(lastSignInAt).toISOString(),
        createdAt: new Date(createdAt).toISOString(),
        deletedAt: null,
        mail: mail.toLowerCase(),
        // No further random draws here, so the rest of the directory is the same as before guests had these.
        guest: {
          source: partner ? 'B2B collaboration' : 'Invited user',
          // Some who never signed in have not redeemed their invitation; the others accepted it.
          invitationStatus: signIn === 'never' && i % 2 === 0 ? 'Pending' : 'Accepted',
          invitedBy: null,
          invitedAt: new Date(createdAt).toISOString(),
          invitationSentAt: new Date(createdAt).toISOString(),
          acceptedAt: signIn === 'never' && i % 2 === 0 ? null : new Date(createdAt + HOUR_MS).toISOString(),
        },
      },
      { department: null, office: null, leader: false, breakGlass: false },
    );
  }
}
