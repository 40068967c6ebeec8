import type { Faker } from '@faker-js/faker';
import type { CloudSignInRecord, CloudUserRecord } from '../provider.js';
import { DEPARTMENTS, FAMILIAR_PLACES, UNFAMILIAR_LOCATIONS } from './simulated-cloud.catalog.js';
import { addGuests, addServiceAccounts } from './simulated-directory-accounts.js';
import { DirectoryBuilder, publicIpv4 } from './simulated-directory-builder.js';
import { buildGroups, buildSignIns, planLicenses } from './simulated-directory-derived.js';
import type { GeneratedDirectory, SimulatedTenantSpec } from './simulated-tenant-spec.js';

export type { GeneratedDirectory, SimulatedTenantSpec } from './simulated-tenant-spec.js';

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
  addServiceAccounts(builder);
  builder.assignDirectoryRoles();
  addGuests(builder);
  builder.addRecentlyDeleted();
  const { skus, assignments } = planLicenses(builder);
  const groups = buildGroups(builder);
  const signIns = buildSignIns(builder);
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
