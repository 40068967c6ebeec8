import type { SecureScoreControlProfile } from '@microsoft/microsoft-graph-types';
import { CloudError } from '../../src/cloud/cloud-error.js';
import { graphTenantAreas } from '../../src/cloud/microsoft365/graph-areas.js';
import { MICROSOFT365_CAPABILITIES } from '../../src/cloud/microsoft365/graph-capabilities.js';
import { graphSecurityPosture } from '../../src/cloud/microsoft365/graph-security-posture.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import { allPages } from '../../src/cloud/pages.js';
import type { SecurityPostureProvider } from '../../src/cloud/security-posture.provider.js';
import { recommendationDefinition } from '../../src/recommendations/recommendation.catalog.js';
import { SECURE_SCORE_CONTROLS } from '../../src/cloud/microsoft365/graph-security-posture.js';
import { fakeSecurity } from '../graph-fake/graph-fake-security.js';
import { FULL_ROLES, startGraphScenario, type GraphScenario } from '../helpers/graph-fake.js';

let scenario: GraphScenario;
let transport: GraphTransport;
let posture: SecurityPostureProvider;
const credentials = () => ({ clientId: scenario.app.clientId, clientSecret: scenario.secret });

const profile = (id: string, maxScore: number, fields: Partial<SecureScoreControlProfile> = {}) => ({
  id,
  azureTenantId: scenario.consented.id,
  title: id,
  controlCategory: 'Identity',
  maxScore,
  deprecated: false,
  vendorInformation: {
    vendor: 'Microsoft',
    provider: 'SecureScore',
    subProvider: null,
    providerVersion: null,
  },
  ...fields,
});

beforeAll(async () => {
  scenario = await startGraphScenario();
  transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
  posture = graphSecurityPosture(transport.forTenant(credentials(), scenario.consented.id));
  const security = fakeSecurity(scenario.consented);
  security.controlProfiles = [
    profile('AdminMFAV2', 10),
    profile('MFARegistrationV2', 9),
    profile('mdo_safelinksforemail', 6, { controlCategory: 'Apps' }),
    profile('SelfServicePasswordReset', 1),
    profile('BlockLegacyAuthentication', 8),
    profile('mdo_safelinksforOfficeApps', 4, { controlCategory: 'Apps' }),
    profile('exo_mailboxaudit', 5, { deprecated: true }),
  ];
  const day = (date: string, scores: Record<string, number>) => ({
    id: `${scenario.consented.id}_${date}`,
    azureTenantId: scenario.consented.id,
    createdDateTime: `${date}T00:00:00Z`,
    currentScore: Object.values(scores).reduce((sum, score) => sum + score, 0),
    maxScore: 33,
    controlScores: Object.entries(scores).map(([controlName, score]) => ({
      controlCategory: 'Identity',
      controlName,
      description: '',
      score,
    })),
  });
  security.secureScores = [
    day('2026-11-27', {
      AdminMFAV2: 10,
      MFARegistrationV2: 9,
      BlockLegacyAuthentication: 0,
      mdo_safelinksforemail: 6,
      mdo_safelinksforOfficeApps: 2,
    }),
    day('2026-11-26', { AdminMFAV2: 0, BlockLegacyAuthentication: 8, mdo_safelinksforOfficeApps: 4 }),
  ];
});
afterAll(() => scenario.fake.stop());
beforeEach(() => scenario.fake.clearRequests());

describe('security controls from Secure Score on Microsoft Graph', () => {
  it("reads every control profile page and today's score, and lists the controls of our catalog", async () => {
    const controls = await allPages(posture.listSecurityControls());
    expect(controls).toEqual([
      // Graph can apply these two (conditional access, security defaults: graph-control-apply.ts).
      { controlId: 'mfa-admin-roles', compliant: true, applySupported: true },
      // Safe Links for email is met, for Office apps not: the recommendation is not met.
      { controlId: 'safe-links', compliant: false, applySupported: false },
      { controlId: 'block-legacy-authentication', compliant: false, applySupported: true },
    ]);
    expect(scenario.fake.graphCalls()).toEqual([
      'GET /v1.0/security/secureScoreControlProfiles',
      'GET /v1.0/security/secureScoreControlProfiles?$top=2&$skip=2',
      'GET /v1.0/security/secureScoreControlProfiles?$top=2&$skip=4',
      'GET /v1.0/security/secureScoreControlProfiles?$top=2&$skip=6',
      'GET /v1.0/security/secureScores?$top=1',
    ]);
  });

  it("reads Microsoft's score and daily history ($top=N), its categories and its comparative averages", async () => {
    const security = fakeSecurity(scenario.consented);
    security.secureScores[0] = {
      ...security.secureScores[0],
      currentScore: 27.5,
      averageComparativeScores: [
        { basis: 'AllTenants', averageScore: 31.25 },
        { basis: 'TotalSeats', averageScore: 29 },
      ],
      controlScores: [
        ...security.secureScores[0].controlScores!,
        { controlCategory: 'Apps', controlName: 'mdo_safelinksforemail', score: 0.5 },
        { controlCategory: 'Infrastructure', controlName: 'azure_vm', score: 3 },
      ],
    };
    const fresh = graphSecurityPosture(transport.forTenant(credentials(), scenario.consented.id));
    const scores = await fresh.readSecureScores!(2);
    expect(scores).toEqual({
      days: [
        { day: '2026-11-27', score: 27.5, maxScore: 33 },
        { day: '2026-11-26', score: 12, maxScore: 33 },
      ],
      // Every test profile is an Identity control but for the two mdo_ ones in Apps (email and collaboration);
      // Infrastructure has no category of ours, and a deprecated profile counts nowhere.
      byCategory: {
        identityAndAccess: { score: 27, maxScore: 28 },
        dataProtection: { score: 0, maxScore: 0 },
        emailSecurity: { score: 0.5, maxScore: 10 },
        deviceSecurity: { score: 0, maxScore: 0 },
        threatProtection: { score: 0, maxScore: 0 },
        auditAndCompliance: { score: 0, maxScore: 0 },
      },
      averages: [
        { basis: 'AllTenants', averageScore: 31.25 },
        { basis: 'TotalSeats', averageScore: 29 },
      ],
    });
    // The profiles and the scores side by side (in either order); the profiles once per client.
    expect(scenario.fake.graphCalls().sort()).toEqual([
      'GET /v1.0/security/secureScoreControlProfiles',
      'GET /v1.0/security/secureScoreControlProfiles?$top=2&$skip=2',
      'GET /v1.0/security/secureScoreControlProfiles?$top=2&$skip=4',
      'GET /v1.0/security/secureScoreControlProfiles?$top=2&$skip=6',
      'GET /v1.0/security/secureScores?$top=2',
    ]);
    scenario.fake.clearRequests();
    await allPages(fresh.listSecurityControls());
    expect(scenario.fake.graphCalls()).toEqual(['GET /v1.0/security/secureScores?$top=1']);
    // At most the 90 days Graph keeps.
    await fresh.readSecureScores!(365);
    expect(scenario.fake.graphCalls()).toContain('GET /v1.0/security/secureScores?$top=90');
  });

  it('maps Secure Score controls to recommendations our catalog has', () => {
    for (const recommendation of Object.keys(SECURE_SCORE_CONTROLS))
      expect(recommendationDefinition(recommendation)).toBeDefined();
  });

  it('is the posture area of a Microsoft 365 tenant; applying what Graph cannot and barriers answer Unsupported', async () => {
    const areas = graphTenantAreas(transport.forTenant(credentials(), scenario.consented.id));
    expect(await allPages(areas.securityPosture.listSecurityControls())).toHaveLength(3);
    scenario.fake.clearRequests();
    for (const [run, capability] of [
      [() => posture.applySecurityControl('safe-links', 'key-1'), 'securityControlApplyOther'],
      [() => posture.previewSecurityControl('dmarc-records'), 'securityControlApplyOther'],
      [() => posture.applyInformationBarriers({ segments: [], policies: [] }), 'informationBarriers'],
    ] as const) {
      const error: unknown = await run().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CloudError);
      expect(error).toMatchObject({ kind: 'Unsupported', capability, provider: 'microsoft365' });
      expect(MICROSOFT365_CAPABILITIES.find((row) => row.capability === capability)).toMatchObject({
        available: false,
      });
    }
    expect(scenario.fake.graphCalls()).toEqual([]);
    expect(MICROSOFT365_CAPABILITIES.find((row) => row.capability === 'securityControls')).toMatchObject({
      available: true,
      permissions: ['SecurityEvents.Read.All'],
    });
  });

  it('a tenant that did not grant SecurityEvents.Read.All answers Forbidden PERMISSION_MISSING', async () => {
    const roles = FULL_ROLES.filter((role) => role !== 'SecurityEvents.Read.All');
    scenario.consented.consents.set(scenario.app.clientId, { roles });
    try {
      const fresh = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
      const refused = graphSecurityPosture(fresh.forTenant(credentials(), scenario.consented.id));
      await expect(allPages(refused.listSecurityControls())).rejects.toMatchObject({
        kind: 'Forbidden',
        reason: 'PERMISSION_MISSING',
      });
    } finally {
      scenario.consented.consents.set(scenario.app.clientId, { roles: FULL_ROLES });
    }
  });

  it('a 429 with a long Retry-After is CloudError Throttled with it', async () => {
    scenario.fake.inject({ url: '/security/secureScores', status: 429, retryAfterSeconds: 60 });
    await expect(allPages(posture.listSecurityControls())).rejects.toMatchObject({
      kind: 'Throttled',
      retryAfterSeconds: 60,
    });
  });
});
