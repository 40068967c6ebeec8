import type { Faker } from '@faker-js/faker';
import { cloudUserRecord, type CloudUserRecord } from '../provider.js';
import {
  DEPARTMENTS,
  GENERIC_DEPARTMENTS,
  OFFICE_CITIES,
  PUBLIC_FIRST_OCTETS,
} from './simulated-cloud.catalog.js';
import type { SimulatedTenantSpec } from './simulated-tenant-spec.js';

export const DAY_MS = 24 * 60 * 60 * 1000;
export const HOUR_MS = 60 * 60 * 1000;

const USAGE_LOCATIONS = ['US', 'GB', 'CA', 'IE', 'DE', 'NL', 'AU', 'FR'];

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
export function publicIpv4(f: Faker): string {
  const octet = () => f.number.int({ min: 1, max: 254 });
  return `${f.helpers.arrayElement(PUBLIC_FIRST_OCTETS)}.${octet()}.${octet()}.${octet()}`;
}

export interface Office {
  city: string;
  ipAddress: string;
}

/** What the generator knows about a person beyond the upstream record. */
export interface PersonFacts {
  department: string | null;
  office: Office | null;
  /** The chief executive or a department manager. */
  leader: boolean;
  /** A cloud-only administrator account: holds no license. */
  breakGlass: boolean;
}

/**
 * Builds one tenant's directory from a seeded faker: the people here, service accounts and guests
 * (simulated-directory-accounts.ts), their licenses, groups and sign-ins (simulated-directory-derived.ts).
 * Generation is synchronous from `seed()` to the end, so the shared locale instance cannot be disturbed in
 * between: the same spec and reference date always give the same directory.
 */
export class DirectoryBuilder {
  readonly users: CloudUserRecord[] = [];
  private readonly facts = new Map<string, PersonFacts>();
  private readonly takenUpns = new Set<string>();
  readonly offices: Office[];
  readonly defaultDomain: string;
  readonly initialDomain: string;
  readonly country: string;

  constructor(
    readonly f: Faker,
    readonly spec: SimulatedTenantSpec,
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

  ago(minMs: number, maxMs: number): number {
    return this.now - this.f.number.int({ min: minMs, max: maxMs });
  }

  uniqueUpn(localPart: string, domain: string): string {
    let candidate = `${localPart}@${domain}`;
    for (let n = 2; this.takenUpns.has(candidate); n++) candidate = `${localPart}${n}@${domain}`;
    this.takenUpns.add(candidate);
    return candidate;
  }

  add(user: CloudUserRecord, facts: PersonFacts): CloudUserRecord {
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
}
