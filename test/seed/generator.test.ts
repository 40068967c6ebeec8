import {
  generateDirectory,
  type GeneratedDirectory,
  type SimulatedTenantSpec,
} from '../../src/cloud/simulated/simulated-cloud.generator.js';

const SPEC: SimulatedTenantSpec = {
  displayName: 'Contoso Dental Group',
  domains: ['contosodental.com', 'contosodental.onmicrosoft.com'],
  seed: 77,
  employees: 80,
  hybrid: true,
};
const AT = new Date('2026-11-01T12:00:00Z');

describe('the simulated cloud generator', () => {
  let directory: GeneratedDirectory;
  let users: GeneratedDirectory['users'];
  let skus: GeneratedDirectory['skus'];
  let assignments: GeneratedDirectory['assignments'];
  let groups: GeneratedDirectory['groups'];
  let signIns: GeneratedDirectory['signIns'];
  let byId: Map<string, GeneratedDirectory['users'][number]>;

  beforeAll(async () => {
    directory = await generateDirectory(SPEC, AT);
    ({ users, skus, assignments, groups, signIns } = directory);
    byId = new Map(users.map((u) => [u.externalId, u]));
  });

  it('gives the same directory for the same seed, and another for another seed', async () => {
    expect(await generateDirectory(SPEC, AT)).toEqual(directory);
    const other = await generateDirectory({ ...SPEC, seed: 78 }, AT);
    expect(other.users.map((u) => u.userPrincipalName)).not.toEqual(users.map((u) => u.userPrincipalName));
  });

  it('keeps the same directory when only the external id is given', async () => {
    const named = await generateDirectory({ ...SPEC, externalId: 'fixed-id' }, AT);
    expect(named.tenant.externalId).toBe('fixed-id');
    expect(named.users).toEqual(users);
  });

  it('has members on the default domain, guests on the onmicrosoft domain, unique UPNs', () => {
    const upns = users.map((u) => u.userPrincipalName);
    expect(new Set(upns).size).toBe(upns.length);
    const guests = users.filter((u) => u.userType === 'Guest');
    expect(guests.length).toBeGreaterThanOrEqual(5);
    for (const guest of guests) {
      expect(guest.userPrincipalName).toMatch(
        /^[a-z0-9.]+_[a-z0-9.-]+#EXT#@contosodental\.onmicrosoft\.com$/,
      );
    }
    const people = users.filter(
      (u) => u.userType === 'Member' && !u.isServiceAccount && u.firstName !== 'Global',
    );
    for (const person of people) expect(person.userPrincipalName).toMatch(/@contosodental\.com$/);
  });

  it('has service accounts with sign-in blocked, synced users, users without usage location, managers', () => {
    const serviceAccounts = users.filter((u) => u.isServiceAccount);
    expect(serviceAccounts.length).toBeGreaterThanOrEqual(2);
    for (const account of serviceAccounts) expect(account.accountEnabled).toBe(false);
    expect(users.filter((u) => u.onPremisesSynced).length).toBeGreaterThan(40);
    expect(users.some((u) => u.userType === 'Member' && !u.isServiceAccount && !u.usageLocation)).toBe(true);
    for (const user of users) {
      if (user.managerExternalId) expect(byId.get(user.managerExternalId)?.userType).toBe('Member');
    }
    expect(users.filter((u) => u.managerExternalId).length).toBeGreaterThan(60);
  });

  it('assigns licenses within the seats, only to members with a usage location who are not service accounts', () => {
    for (const sku of skus) {
      const used = assignments.filter((a) => a.skuId === sku.skuId).length;
      expect(used).toBeLessThanOrEqual(sku.prepaidUnits);
    }
    expect(
      skus.some((sku) => sku.prepaidUnits - assignments.filter((a) => a.skuId === sku.skuId).length === 1),
    ).toBe(true);
    for (const assignment of assignments) {
      const user = byId.get(assignment.userExternalId)!;
      expect(user.userType).toBe('Member');
      expect(user.isServiceAccount).toBe(false);
      expect(user.usageLocation).not.toBeNull();
      expect(user.deletedAt).toBeNull();
    }
  });

  it('has groups of existing users and sign-ins of existing users, a few of them risky', () => {
    for (const group of groups)
      for (const member of group.memberExternalIds) expect(byId.has(member)).toBe(true);
    const upns = new Set(users.map((u) => u.userPrincipalName));
    for (const signIn of signIns) expect(upns.has(signIn.userPrincipalName)).toBe(true);
    const risky = signIns.filter((s) => s.riskLevel !== 'none');
    expect(risky.length).toBeGreaterThanOrEqual(2);
    expect(risky.some((s) => s.riskLevel === 'high')).toBe(true);
    for (const signIn of signIns)
      expect(new Date(signIn.createdAt).getTime()).toBeLessThanOrEqual(AT.getTime());
  });
});
