import {
  ADMIN_MFA_POLICY_NAME,
  ADMIN_ROLE_TEMPLATES,
} from '../../src/cloud/microsoft365/graph-control-apply.js';
import { MICROSOFT365_CAPABILITIES } from '../../src/cloud/microsoft365/graph-capabilities.js';
import { graphSecurityPosture } from '../../src/cloud/microsoft365/graph-security-posture.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import type { SecurityPostureProvider } from '../../src/cloud/security-posture.provider.js';
import { fakePolicies } from '../graph-fake/graph-fake-policies.js';
import { FULL_ROLES, startGraphScenario, type GraphScenario } from '../helpers/graph-fake.js';

/** Applying security controls through the real Graph client: security defaults and conditional access. */
let scenario: GraphScenario;
let posture: SecurityPostureProvider;
const credentials = () => ({ clientId: scenario.app.clientId, clientSecret: scenario.secret });
const policies = () => fakePolicies(scenario.consented);

const CA = '/v1.0/identity/conditionalAccess/policies';
const DEFAULTS = '/v1.0/policies/identitySecurityDefaultsEnforcementPolicy';
const graphRequests = () =>
  scenario.fake.requests
    .filter((request) => request.service === 'graph')
    .map(({ method, url, body }) => (body === undefined ? { method, url } : { method, url, body }));

beforeAll(async () => {
  scenario = await startGraphScenario();
  const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
  posture = graphSecurityPosture(transport.forTenant(credentials(), scenario.consented.id));
});
afterAll(() => scenario.fake.stop());
beforeEach(() => {
  Object.assign(policies(), { securityDefaults: false, conditionalAccess: [] });
  scenario.fake.clearRequests();
});

describe('mfa-admin-roles: a conditional-access policy requiring MFA of the admin roles', () => {
  it('a dry run creates it report-only; the apply then enables it; a third apply finds it enabled', async () => {
    expect(await posture.previewSecurityControl('mfa-admin-roles')).toBe('applied');
    const policy = {
      displayName: ADMIN_MFA_POLICY_NAME,
      state: 'enabledForReportingButNotEnforced',
      conditions: {
        users: { includeRoles: ADMIN_ROLE_TEMPLATES },
        applications: { includeApplications: ['All'] },
        clientAppTypes: ['all'],
      },
      grantControls: { operator: 'OR', builtInControls: ['mfa'] },
    };
    expect(graphRequests()).toEqual([
      { method: 'GET', url: CA },
      { method: 'POST', url: CA, body: policy },
    ]);
    expect(ADMIN_ROLE_TEMPLATES).toContain('62e90394-69f5-4237-9190-012177145e10'); // Global Administrator
    scenario.fake.clearRequests();
    expect(await posture.applySecurityControl('mfa-admin-roles', 'key-1')).toBe('applied');
    const id = policies().conditionalAccess[0].id;
    expect(graphRequests()).toEqual([
      { method: 'GET', url: CA },
      { method: 'PATCH', url: `${CA}/${id}`, body: { state: 'enabled' } },
    ]);
    scenario.fake.clearRequests();
    expect(await posture.applySecurityControl('mfa-admin-roles', 'key-2')).toBe('already compliant');
    expect(await posture.previewSecurityControl('mfa-admin-roles')).toBe('already compliant');
    expect(graphRequests()).toEqual([
      { method: 'GET', url: CA },
      { method: 'GET', url: CA },
    ]);
    expect(policies().conditionalAccess).toHaveLength(1);
  });

  it('an apply without a dry run creates it enabled, once', async () => {
    expect(await posture.applySecurityControl('mfa-admin-roles')).toBe('applied');
    expect(await posture.applySecurityControl('mfa-admin-roles')).toBe('already compliant');
    expect(policies().conditionalAccess).toEqual([
      expect.objectContaining({ displayName: ADMIN_MFA_POLICY_NAME, state: 'enabled' }),
    ]);
  });

  it("Entra ID's refusal (security defaults on) is a Refused CloudError with its message", async () => {
    policies().securityDefaults = true;
    await expect(posture.applySecurityControl('mfa-admin-roles')).rejects.toMatchObject({
      kind: 'Refused',
      message: expect.stringContaining('Security Defaults is enabled'),
    });
    expect(policies().conditionalAccess).toEqual([]);
  });
});

describe('mfa-all-users and block-legacy-authentication: security defaults', () => {
  it.each(['mfa-all-users', 'block-legacy-authentication'])(
    '%s: a dry run reads only; the apply sends {isEnabled: true}; then it is already compliant',
    async (control) => {
      expect(await posture.previewSecurityControl(control)).toBe('applied');
      expect(policies().securityDefaults).toBe(false);
      expect(await posture.applySecurityControl(control, 'key-1')).toBe('applied');
      expect(await posture.applySecurityControl(control, 'key-2')).toBe('already compliant');
      expect(graphRequests()).toEqual([
        { method: 'GET', url: DEFAULTS },
        { method: 'GET', url: DEFAULTS },
        { method: 'PATCH', url: DEFAULTS, body: { isEnabled: true } },
        { method: 'GET', url: DEFAULTS },
      ]);
      expect(policies().securityDefaults).toBe(true);
    },
  );

  it('a tenant that did not grant Policy.ReadWrite.SecurityDefaults answers Forbidden', async () => {
    const roles = FULL_ROLES.filter((role) => role !== 'Policy.ReadWrite.SecurityDefaults');
    scenario.consented.consents.set(scenario.app.clientId, { roles });
    try {
      const fresh = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
      const refused = graphSecurityPosture(fresh.forTenant(credentials(), scenario.consented.id));
      await expect(refused.applySecurityControl('mfa-all-users')).rejects.toMatchObject({
        kind: 'Forbidden',
      });
    } finally {
      scenario.consented.consents.set(scenario.app.clientId, { roles: FULL_ROLES });
    }
  });

  it('the capability rows name the permissions, and the controls Graph cannot apply', () => {
    expect(MICROSOFT365_CAPABILITIES.find((row) => row.capability === 'securityControlApply')).toMatchObject({
      available: true,
      permissions: [
        'Policy.Read.All',
        'Policy.ReadWrite.ConditionalAccess',
        'Policy.ReadWrite.SecurityDefaults',
      ],
    });
    expect(
      MICROSOFT365_CAPABILITIES.find((row) => row.capability === 'securityControlApplyOther'),
    ).toMatchObject({
      available: false,
    });
  });
});
