import type { Faker } from '@faker-js/faker';
import {
  cloudUserRecord,
  type CloudGroupRecord,
  type CloudLicenseAssignmentRecord,
  type CloudRestrictedSenderRecord,
  type CloudRestrictionReason,
  type CloudSignInRecord,
  type CloudSkuRecord,
  type CloudTenantRecord,
  type CloudUserRecord,
} from '../provider.js';
import {
  CONSUMER_MAIL_DOMAINS,
  DEPARTMENTS,
  GENERIC_DEPARTMENTS,
  OFFICE_CITIES,
  PUBLIC_FIRST_OCTETS,
  SERVICE_ACCOUNTS,
  SKU_CATALOG,
  SUITE_SKUS,
  UNFAMILIAR_LOCATIONS,
  type SkuPartNumber,
} from './simulated-cloud.catalog.js';

/** What a simulated tenant looks like; everything else follows from the seed. */
export interface SimulatedTenantSpec {
  /** The tenant's id in the simulated cloud; derived from the seed when absent. */
  externalId?: string;
  displayName: string;
  /** Verified domains, the default domain (the one users sign in with) first; guests live on the `.onmicrosoft.com` one. */
  domains: string[];
  seed: number;
  /** People with a member account (default 40); guests, service accounts and deleted users come on top. */
  employees?: number;
  /** ISO 3166 alpha-2 of the head office (default US); picks the locale of names and phone numbers. */
  country?: string;
  /** Departments besides the executive team (default a generic office mix). */
  departments?: string[];
  /** Directory synced from an on-premises Active Directory: most people are `onPremisesSynced`. */
  hybrid?: boolean;
  /** The productivity suite office workers hold (default chosen by size). */
  suite?: SkuPartNumber;
}

export interface GeneratedDirectory {
  tenant: CloudTenantRecord;
  seed: number;
  users: CloudUserRecord[];
  skus: CloudSkuRecord[];
  groups: CloudGroupRecord[];
  assignments: CloudLicenseAssignmentRecord[];
  signIns: CloudSignInRecord[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/**
 * faker and its locale data (~4 MiB of heap, ~70 ms to load) come in the first time a directory or a sign-in
 * batch is generated, not with every server's start-up (issue #11: memory and start time).
 */
let fakersByCountry: Promise<Record<string, Faker>> | undefined;

function fakers(): Promise<Record<string, Faker>> {
  fakersByCountry ??= Promise.all([
    import('@faker-js/faker/locale/en_US'),
    import('@faker-js/faker/locale/en_GB'),
    import('@faker-js/faker/locale/en_CA'),
    import('@faker-js/faker/locale/en_AU'),
    import('@faker-js/faker/locale/de'),
    import('@faker-js/faker/locale/de_CH'),
  ]).then(([us, gb, ca, au, de, ch]) => ({
    US: us.faker,
    GB: gb.faker,
    CA: ca.faker,
    AU: au.faker,
    DE: de.faker,
    CH: ch.faker,
  }));
  return fakersByCountry;
}
const USAGE_LOCATIONS = ['US', 'GB', 'CA', 'IE', 'DE', 'NL', 'AU', 'FR'];
/** Where guests and travelling staff sign in from: ordinary places, not risky ones. */
const FAMILIAR_PLACES = Object.entries(OFFICE_CITIES).flatMap(([country, cities]) =>
  cities.map((city) => `${city}, ${country}`),
);

/** A lower-case ASCII mail local part: "Zoë O'Brien" → "zoe.obrien". */
export function mailLocalPart(...parts: string[]): string {
  return parts
    .map((part) =>
      part
        .replace(/ß/g, 'ss')
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]/g, ''),
    )
    .filter(Boolean)
    .join('.');
}

/** The `.onmicrosoft.com` domain every tenant has (guests' UPNs use it), else the last domain given. */
export function initialDomainOf(domains: string[]): string {
  return domains.find((domain) => domain.endsWith('.onmicrosoft.com')) ?? domains[domains.length - 1];
}

/** An address of public IPv4 space, as sign-ins come from. */
function publicIpv4(f: Faker): string {
  const octet = () => f.number.int({ min: 1, max: 254 });
  return `${f.helpers.arrayElement(PUBLIC_FIRST_OCTETS)}.${octet()}.${octet()}.${octet()}`;
}

interface Office {
  city: string;
  ipAddress: string;
}

/** What the generator knows about a person beyond the upstream record. */
interface PersonFacts {
  department: string | null;
  office: Office | null;
  /** The chief executive or a department manager. */
  leader: boolean;
  /** A cloud-only administrator account: holds no license. */
  breakGlass: boolean;
}

/**
 * Builds one tenant's directory from a seeded faker. Generation is synchronous from `seed()` to the
 * end, so the shared locale instance cannot be disturbed in between: the same spec and reference date
 * always give the same directory.
 */
class DirectoryBuilder {
  readonly users: CloudUserRecord[] = [];
  private readonly facts = new Map<string, PersonFacts>();
  private readonly takenUpns = new Set<string>();
  private readonly offices: Office[];
  private readonly defaultDomain: string;
  private readonly initialDomain: string;
  private readonly country: string;

  constructor(
    private readonly f: Faker,
    private readonly spec: SimulatedTenantSpec,
    private readonly now: number,
  ) {
    this.defaultDomain = spec.domains[0].toLowerCase();
    this.initialDomain = initialDomainOf(spec.domains).toLowerCase();
    this.country = spec.country ?? 'US';
    const employees = spec.employees ?? 40;
    const officeCount = employees > 60 ? 3 : employees > 25 ? 2 : 1;
    const cities = OFFICE_CITIES[this.country] ?? OFFICE_CITIES.US;
    this.offices = f.helpers
      .arrayElements(cities, officeCount)
      .map((city) => ({ city, ipAddress: publicIpv4(f) }));
  }

  private ago(minMs: number, maxMs: number): number {
    return this.now - this.f.number.int({ min: minMs, max: maxMs });
  }

  private uniqueUpn(localPart: string, domain: string): string {
    let candidate = `${localPart}@${domain}`;
    for (let n = 2; this.takenUpns.has(candidate); n++) candidate = `${localPart}${n}@${domain}`;
    this.takenUpns.add(candidate);
    return candidate;
  }

  private add(user: CloudUserRecord, facts: PersonFacts): CloudUserRecord {
    this.users.push(user);
    this.facts.set(user.externalId, facts);
    return user;
  }

  factsOf(user: CloudUserRecord): PersonFacts {
    return this.facts.get(user.externalId)!;
  }

  private mfaStatus(): CloudUserRecord['mfaStatus'] {
    return this.f.helpers.weightedArrayElement([
      { weight: 45, value: 'Enforced' as const },
      { weight: 25, value: 'Enabled' as const },
      { weight: 30, value: 'Disabled' as const },
    ]);
  }

  /** A member who works here; leaders are always enabled and always have a usage location. */
  private person(input: {
    department: string;
    jobTitle: string;
    managerExternalId: string | null;
    leader: boolean;
  }): CloudUserRecord {
    const f = this.f;
    const firstName = f.person.firstName();
    const lastName = f.person.lastName();
    const contractor = !input.leader && f.datatype.boolean(0.08);
    const enabled = input.leader || f.datatype.boolean(0.95);
    const usageLocation =
      !input.leader && f.datatype.boolean(0.08)
        ? null
        : f.datatype.boolean(0.9)
          ? this.country
          : f.helpers.arrayElement(USAGE_LOCATIONS);
    const synced = Boolean(this.spec.hybrid) && f.datatype.boolean(0.9);
    const createdAt = this.ago(20 * DAY_MS, 6 * 365 * DAY_MS);
    let lastSignInAt: number | null;
    if (!enabled) lastSignInAt = this.ago(60 * DAY_MS, 400 * DAY_MS);
    else if (f.datatype.boolean(0.85)) lastSignInAt = this.ago(5 * 60 * 1000, 14 * DAY_MS);
    else lastSignInAt = f.datatype.boolean(0.5) ? this.ago(30 * DAY_MS, 150 * DAY_MS) : null;
    if (lastSignInAt !== null) lastSignInAt = Math.max(lastSignInAt, createdAt + HOUR_MS);
    const office = f.helpers.arrayElement(this.offices);
    return this.add(
      {
        externalId: f.string.uuid(),
        userPrincipalName: this.uniqueUpn(mailLocalPart(firstName, lastName), this.defaultDomain),
        displayName: `${firstName} ${lastName}`,
        firstName,
        lastName,
        jobTitle: input.jobTitle,
        department: input.department,
        companyName: contractor ? f.company.name() : this.spec.displayName,
        officeLocation: office.city,
        businessPhone: f.datatype.boolean(0.7) ? f.phone.number({ style: 'international' }) : null,
        mobilePhone: f.datatype.boolean(0.5) ? f.phone.number({ style: 'international' }) : null,
        employeeId: !contractor && (synced || f.datatype.boolean(0.6)) ? `E${f.string.numeric(5)}` : null,
        employeeType: contractor ? 'Contractor' : 'Employee',
        managerExternalId: input.managerExternalId,
        usageLocation,
        accountEnabled: enabled,
        mfaStatus: this.mfaStatus(),
        userType: 'Member',
        onPremisesSynced: synced,
        isServiceAccount: false,
        lastSignInAt: lastSignInAt === null ? null : new Date(lastSignInAt).toISOString(),
        createdAt: new Date(createdAt).toISOString(),
        deletedAt: null,
      },
      { department: input.department, office, leader: input.leader, breakGlass: false },
    );
  }

  /** The executive, one manager per department, then staff spread over the departments. */
  addEmployees(): void {
    const f = this.f;
    const employees = this.spec.employees ?? 40;
    const departments = this.spec.departments ?? GENERIC_DEPARTMENTS;
    const chief = this.person({
      department: 'Executive',
      jobTitle: DEPARTMENTS.Executive.manager,
      managerExternalId: null,
      leader: true,
    });
    const managerOf = new Map<string, string>();
    for (const department of departments.slice(0, Math.max(0, employees - 1))) {
      const manager = this.person({
        department,
        jobTitle: DEPARTMENTS[department].manager,
        managerExternalId: chief.externalId,
        leader: true,
      });
      managerOf.set(department, manager.externalId);
    }
    const weighted = [
      { weight: 1, value: 'Executive' },
      ...departments.map((value) => {
        const profile = DEPARTMENTS[value];
        return { weight: profile.support ? 1 : profile.frontline ? 5 : 4, value };
      }),
    ];
    while (this.users.length < employees) {
      const department = f.helpers.weightedArrayElement(weighted);
      this.person({
        department,
        jobTitle: f.helpers.arrayElement(DEPARTMENTS[department].titles),
        managerExternalId: managerOf.get(department) ?? chief.externalId,
        leader: false,
      });
    }
  }

  /** The MSP's cloud-only global administrator: strong MFA, no license, never synced. */
  addBreakGlassAdmin(): void {
    const createdAt = this.ago(365 * DAY_MS, 5 * 365 * DAY_MS);
    this.add(
      cloudUserRecord({
        externalId: this.f.string.uuid(),
        userPrincipalName: this.uniqueUpn('admin', this.initialDomain),
        displayName: 'Global Administrator',
        firstName: 'Global',
        lastName: 'Administrator',
        mfaStatus: 'Enforced',
        directoryRoles: ['Global Administrator'],
        lastSignInAt: new Date(this.ago(HOUR_MS, 10 * DAY_MS)).toISOString(),
        createdAt: new Date(createdAt).toISOString(),
      }),
      { department: 'IT', office: this.offices[0], leader: false, breakGlass: true },
    );
  }

  /**
   * Directory roles of the people who run the tenant (the break-glass account is a Global Administrator
   * already): the IT manager is a second Global Administrator, the first other IT member a User and
   * Helpdesk Administrator, the chief executive a Global Reader (a role that is not privileged). No random
   * draw, so the rest of the directory is the same as before roles existed.
   */
  assignDirectoryRoles(): void {
    const it = this.users.filter(
      (user) => this.factsOf(user).department === 'IT' && !this.factsOf(user).breakGlass,
    );
    const itManager = it.find((user) => this.factsOf(user).leader);
    if (itManager) itManager.directoryRoles = ['Global Administrator'];
    const itMember = it.find((user) => !this.factsOf(user).leader && !user.isServiceAccount);
    if (itMember) itMember.directoryRoles = ['Helpdesk Administrator', 'User Administrator'];
    const chief = this.users.find(
      (user) => this.factsOf(user).department === 'Executive' && this.factsOf(user).leader,
    );
    if (chief) chief.directoryRoles = ['Global Reader'];
  }

  /** Non-human members: interactive sign-in blocked, no licenses (SPEC 2.3). */
  addServiceAccounts(): void {
    const f = this.f;
    const chosen = f.helpers.arrayElements(SERVICE_ACCOUNTS, { min: 2, max: 4 });
    for (const account of chosen) {
      this.add(
        {
          externalId: f.string.uuid(),
          userPrincipalName: this.uniqueUpn(account.localPart, this.defaultDomain),
          displayName: account.displayName,
          firstName: account.displayName,
          lastName: '',
          jobTitle: account.jobTitle,
          department: 'IT',
          companyName: this.spec.displayName,
          officeLocation: null,
          businessPhone: null,
          mobilePhone: null,
          employeeId: null,
          employeeType: null,
          managerExternalId: null,
          usageLocation: f.datatype.boolean(0.5) ? this.country : null,
          accountEnabled: false,
          mfaStatus: 'Disabled',
          userType: 'Member',
          onPremisesSynced: false,
          isServiceAccount: true,
          lastSignInAt: null,
          createdAt: new Date(this.ago(200 * DAY_MS, 4 * 365 * DAY_MS)).toISOString(),
          deletedAt: null,
        },
        { department: 'IT', office: null, leader: false, breakGlass: false },
      );
    }
  }

  /** B2B guests: `name_example.com#EXT#@tenant.onmicrosoft.com`; about a third have gone stale (90+ days). */
  addGuests(): void {
    const f = this.f;
    const count = Math.max(2, Math.round((this.spec.employees ?? 40) * 0.12));
    for (let i = 0; i < count; i++) {
      const firstName = f.person.firstName();
      const lastName = f.person.lastName();
      const partner = f.datatype.boolean(0.5);
      const mailDomain = partner ? f.internet.domainName() : f.helpers.arrayElement(CONSUMER_MAIL_DOMAINS);
      const mail = `${mailLocalPart(firstName, lastName)}@${mailDomain}`;
      const createdAt = this.ago(30 * DAY_MS, 900 * DAY_MS);
      const signIn = f.helpers.weightedArrayElement([
        { weight: 45, value: 'recent' as const },
        { weight: 35, value: 'stale' as const },
        { weight: 20, value: 'never' as const },
      ]);
      const lastSignInAt =
        signIn === 'never'
          ? null
          : signIn === 'stale'
            ? Math.max(createdAt + HOUR_MS, this.ago(95 * DAY_MS, 400 * DAY_MS))
            : Math.max(createdAt + HOUR_MS, this.ago(HOUR_MS, 30 * DAY_MS));
      this.add(
        {
          externalId: f.string.uuid(),
          userPrincipalName: this.uniqueUpn(`${mail.replace('@', '_')}#EXT#`, this.initialDomain),
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
            acceptedAt:
              signIn === 'never' && i % 2 === 0 ? null : new Date(createdAt + HOUR_MS).toISOString(),
          },
        },
        { department: null, office: null, leader: false, breakGlass: false },
      );
    }
  }

  /** People who left recently: in the recycle bin (30-day window), no licenses, groups or manager. */
  addRecentlyDeleted(): void {
    const f = this.f;
    const departments = this.spec.departments ?? GENERIC_DEPARTMENTS;
    const count = (this.spec.employees ?? 40) >= 30 ? 2 : 1;
    for (let i = 0; i < count; i++) {
      const department = f.helpers.arrayElement(departments);
      const user = this.person({
        department,
        jobTitle: f.helpers.arrayElement(DEPARTMENTS[department].titles),
        managerExternalId: null,
        leader: false,
      });
      const deletedAt = this.ago(DAY_MS, 25 * DAY_MS);
      user.deletedAt = new Date(deletedAt).toISOString();
      user.accountEnabled = false;
      if (user.lastSignInAt && Date.parse(user.lastSignInAt) > deletedAt) {
        user.lastSignInAt = new Date(deletedAt - 2 * HOUR_MS).toISOString();
      }
    }
  }

  /**
   * Office workers hold the suite, frontline staff a mailbox-only plan, some people add-ons.
   * Only members with a usage location who are not service accounts hold licenses; a few disabled
   * accounts still do (a cost finding). Seats: the suite is nearly full (one free seat), the rest have room.
   */
  planLicenses(): { skus: CloudSkuRecord[]; assignments: CloudLicenseAssignmentRecord[] } {
    const f = this.f;
    const employees = this.spec.employees ?? 40;
    const suite: SkuPartNumber =
      this.spec.suite ??
      (employees > 100 ? 'ENTERPRISEPACK' : f.helpers.arrayElement(['SPB', 'SPB', 'O365_BUSINESS_PREMIUM']));
    const holders = new Map<SkuPartNumber, string[]>();
    const hold = (part: SkuPartNumber, userExternalId: string) =>
      holders.set(part, [...(holders.get(part) ?? []), userExternalId]);
    for (const user of this.users) {
      const facts = this.factsOf(user);
      if (user.userType !== 'Member' || user.isServiceAccount || !user.usageLocation) continue;
      if (user.deletedAt || facts.breakGlass || !facts.department) continue;
      if (!user.accountEnabled && f.datatype.boolean(0.5)) continue;
      const profile = DEPARTMENTS[facts.department];
      if (profile.frontline) hold('EXCHANGESTANDARD', user.externalId);
      else if (f.datatype.boolean(0.96)) hold(suite, user.externalId);
      for (const addOn of profile.addOns ?? []) if (f.datatype.boolean(0.35)) hold(addOn, user.externalId);
    }
    const parts = (Object.keys(SKU_CATALOG) as SkuPartNumber[]).filter((part) => holders.has(part));
    const unused = (Object.keys(SKU_CATALOG) as SkuPartNumber[]).filter(
      (part) => !holders.has(part) && !SUITE_SKUS.includes(part),
    );
    const skus = parts.map((part) => {
      const consumed = holders.get(part)!.length;
      const free = part === suite ? 1 : f.number.int({ min: 2, max: 12 });
      return { ...SKU_CATALOG[part], prepaidUnits: consumed + free };
    });
    // A subscription bought and never used: a cost finding.
    if (unused.length > 0 && f.datatype.boolean(0.5)) {
      skus.push({
        ...SKU_CATALOG[f.helpers.arrayElement(unused)],
        prepaidUnits: f.number.int({ min: 1, max: 5 }),
      });
    }
    const assignments = parts.flatMap((part) =>
      holders.get(part)!.map((userExternalId) => ({ userExternalId, skuId: SKU_CATALOG[part].skuId })),
    );
    return { skus, assignments };
  }

  buildGroups(): CloudGroupRecord[] {
    const f = this.f;
    const staff = this.users.filter(
      (u) => u.userType === 'Member' && !u.isServiceAccount && !u.deletedAt && u.accountEnabled,
    );
    const ids = (users: CloudUserRecord[]) => users.map((u) => u.externalId);
    const groups: Array<{ displayName: string; members: string[] }> = [
      { displayName: 'All Staff', members: ids(staff) },
      {
        displayName: 'Leadership',
        members: ids(staff.filter((u) => this.factsOf(u).leader)),
      },
    ];
    for (const department of this.spec.departments ?? GENERIC_DEPARTMENTS) {
      const members = staff.filter((u) => this.factsOf(u).department === department);
      if (members.length >= 2) groups.push({ displayName: `${department} Team`, members: ids(members) });
    }
    groups.push({
      displayName: 'IT Admins',
      members: ids(staff.filter((u) => this.factsOf(u).department === 'IT' || this.factsOf(u).breakGlass)),
    });
    groups.push({
      displayName: 'VPN Users',
      members: ids(f.helpers.arrayElements(staff, Math.ceil(staff.length * 0.3))),
    });
    const guests = this.users.filter((u) => u.userType === 'Guest');
    if (guests.length > 0) groups.push({ displayName: 'External Collaborators', members: ids(guests) });
    return groups.map((group) => ({
      externalId: f.string.uuid(),
      displayName: group.displayName,
      memberExternalIds: group.members,
    }));
  }

  /** One sign-in per user at their last sign-in, plus a few risky ones from unfamiliar places. */
  buildSignIns(): CloudSignInRecord[] {
    const f = this.f;
    const signIns: CloudSignInRecord[] = [];
    for (const user of this.users) {
      if (!user.lastSignInAt) continue;
      const office = this.factsOf(user).office;
      signIns.push({
        id: f.string.uuid(),
        userPrincipalName: user.userPrincipalName,
        riskLevel: 'none',
        location: office ? `${office.city}, ${this.country}` : f.helpers.arrayElement(FAMILIAR_PLACES),
        ipAddress: office && f.datatype.boolean(0.8) ? office.ipAddress : publicIpv4(f),
        createdAt: user.lastSignInAt,
      });
    }
    const targets = this.users.filter(
      (u) => u.userType === 'Member' && !u.isServiceAccount && !u.deletedAt && u.accountEnabled,
    );
    const riskyCount = f.number.int({ min: 2, max: 4 });
    for (let i = 0; i < riskyCount && targets.length > 0; i++) {
      const user = f.helpers.arrayElement(targets);
      const at = new Date(this.ago(HOUR_MS, 3 * DAY_MS)).toISOString();
      signIns.push({
        id: f.string.uuid(),
        userPrincipalName: user.userPrincipalName,
        riskLevel: i === 0 ? 'high' : f.helpers.arrayElement(['high', 'medium', 'low'] as const),
        location: f.helpers.arrayElement(UNFAMILIAR_LOCATIONS),
        ipAddress: publicIpv4(f),
        createdAt: at,
      });
      if (!user.lastSignInAt || user.lastSignInAt < at) user.lastSignInAt = at;
    }
    return signIns;
  }
}

/**
 * A realistic directory for one tenant: members with managers, titles and departments (some synced
 * from on-premises, some without a usage location), guests, service accounts, recently deleted users,
 * SKUs with prepaid seats, license assignments within the seats, groups and sign-ins (a few risky).
 * Deterministic: the same spec and reference date give the same directory.
 */
export async function generateDirectory(
  spec: SimulatedTenantSpec,
  referenceDate: Date,
): Promise<GeneratedDirectory> {
  const byCountry = await fakers();
  const unknown = (spec.departments ?? []).filter((department) => !(department in DEPARTMENTS));
  if (unknown.length > 0) throw new Error(`Unknown departments: ${unknown.join(', ')}`);
  if (spec.domains.length === 0) throw new Error('A simulated tenant needs at least one domain');
  const f = byCountry[spec.country ?? 'US'] ?? byCountry.US;
  f.seed(spec.seed);
  // Drawn first and always, so an explicit externalId leaves the rest of the directory unchanged.
  const derivedExternalId = f.string.uuid();
  const builder = new DirectoryBuilder(f, spec, referenceDate.getTime());
  builder.addEmployees();
  builder.addBreakGlassAdmin();
  builder.addServiceAccounts();
  builder.assignDirectoryRoles();
  builder.addGuests();
  builder.addRecentlyDeleted();
  const { skus, assignments } = builder.planLicenses();
  const groups = builder.buildGroups();
  const signIns = builder.buildSignIns();
  return {
    tenant: {
      externalId: spec.externalId ?? derivedExternalId,
      displayName: spec.displayName,
      domains: spec.domains.map((domain) => domain.toLowerCase()),
    },
    seed: spec.seed,
    users: builder.users,
    skus,
    groups,
    assignments,
    signIns,
  };
}

/**
 * One step of upstream activity for `advance`: a few people sign in (now, or seconds before), and one
 * of them from an unfamiliar place with a risky sign-in. Deterministic for a tenant seed and tick.
 */
export async function generateSignInBatch(
  users: CloudUserRecord[],
  seed: number,
  tick: number,
  referenceDate: Date,
): Promise<CloudSignInRecord[]> {
  const f = (await fakers()).US;
  const candidates = users
    .filter((u) => u.userType === 'Member' && !u.isServiceAccount && !u.deletedAt && u.accountEnabled)
    .sort((a, b) => a.externalId.localeCompare(b.externalId));
  if (candidates.length === 0) return [];
  f.seed([seed, tick]);
  const now = referenceDate.getTime();
  const people = f.helpers.arrayElements(candidates, { min: 1, max: Math.min(6, candidates.length) });
  return people.map((user, index) => {
    const risky = index === 0;
    return {
      id: f.string.uuid(),
      userPrincipalName: user.userPrincipalName,
      riskLevel: risky ? f.helpers.arrayElement(['high', 'medium'] as const) : 'none',
      location: risky
        ? f.helpers.arrayElement(UNFAMILIAR_LOCATIONS)
        : user.officeLocation
          ? `${user.officeLocation}, ${user.usageLocation ?? 'US'}`
          : f.helpers.arrayElement(FAMILIAR_PLACES),
      ipAddress: publicIpv4(f),
      // The newest exactly now, the others a second apart before it.
      createdAt: new Date(now - index * 1000).toISOString(),
    };
  });
}

/** A small seeded PRNG (mulberry32), separate from faker so that no other draw of a tenant moves. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the admin is told to do for each reason (SPEC 2.6 "Restricted user": action required). */
export const RESTRICTION_ACTIONS: Record<CloudRestrictionReason, string> = {
  'Outbound spam':
    'Check the mailbox for compromise (reset the password, revoke sessions, review inbox rules), then unblock',
  'Sending limit exceeded':
    'Confirm the mail volume was legitimate (bulk mail belongs in a mailing service), then unblock',
  'Suspicious activity': 'Review recent sign-ins and reset the password; unblock once the account is secured',
};

const RESTRICTION_REASONS = Object.keys(RESTRICTION_ACTIONS) as CloudRestrictionReason[];

/**
 * A few restricted senders for a generated tenant (zero to three active members, restricted in the last
 * two weeks). Drawn after the directory with a PRNG of their own, so the rest of the generated tenant is
 * exactly what it was before restrictions existed. Deterministic for a seed, users and reference date.
 */
export function generateRestrictedSenders(
  users: CloudUserRecord[],
  seed: number,
  referenceDate: Date,
): CloudRestrictedSenderRecord[] {
  const candidates = users
    .filter((u) => u.userType === 'Member' && !u.isServiceAccount && !u.deletedAt && u.accountEnabled)
    .sort((a, b) => a.externalId.localeCompare(b.externalId));
  const random = seededRandom(seed ^ 0x5e17d3);
  const count = Math.min(candidates.length, Math.floor(random() * 4));
  const picked = new Set<number>();
  const senders: CloudRestrictedSenderRecord[] = [];
  while (senders.length < count) {
    const index = Math.floor(random() * candidates.length);
    if (picked.has(index)) continue;
    picked.add(index);
    const user = candidates[index];
    const reason = RESTRICTION_REASONS[Math.floor(random() * RESTRICTION_REASONS.length)];
    const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
    senders.push({
      externalId: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`,
      userExternalId: user.externalId,
      userPrincipalName: user.userPrincipalName,
      displayName: user.displayName,
      restrictedAt: new Date(referenceDate.getTime() - Math.floor(random() * 14 * 86_400_000)).toISOString(),
      reason,
      status: 'Restricted',
      actionRequired: RESTRICTION_ACTIONS[reason],
      unblockedAt: null,
    });
  }
  return senders;
}
