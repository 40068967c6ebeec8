import { Permission } from '../../src/core/permissions.js';
import { Plan } from '../../src/organizations/organization.enums.js';
import { createMember, createOAuthClient, issueAccessToken } from '../factories/oauth.js';
import type { Envelope } from '../helpers/envelope.js';
import { type OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

/**
 * What every REST route needs, written by hand from SPEC 5.1/5.2 and DECISIONS "OAuth scopes" (not read
 * from the code under test). `!` marks a destructive action: an API key needs the Admin level for it, an
 * access token the family's write scope. `@live` marks an action only live credentials may take (issue #9
 * item 4): every sandbox credential gets 403. A route of the table without a row here fails the test.
 */
const EXPECTED: Record<string, `${Permission}` | `${Permission}!` | `${Permission}@live`> = {
  'GET /v1/tenants': 'read:tenants',
  'GET /v1/available-tenants': 'read:tenants',
  'GET /v1/tenants/:id': 'read:tenants',
  'POST /v1/tenants/:id/sync': 'write:tenants',
  'GET /v1/tenants/:id/syncs/:syncId': 'read:tenants',
  'GET /v1/tenants/:id/users': 'read:users',
  'GET /v1/tenants/:id/users/:userId': 'read:users',
  'POST /v1/tenants/:id/users': 'write:users',
  'PATCH /v1/tenants/:id/users/:userId': 'write:users',
  'DELETE /v1/tenants/:id/users/:userId': 'write:users!',
  'GET /v1/tenants/:id/licenses': 'read:licenses',
  'GET /v1/tenants/:id/licenses/assignments': 'read:licenses',
  'POST /v1/tenants/:id/licenses/assign': 'write:licenses',
  'POST /v1/tenants/:id/licenses/remove': 'write:licenses',
  'GET /v1/webhooks': 'read:tenants',
  'POST /v1/webhooks': 'admin',
  'GET /v1/webhooks/:id': 'read:tenants',
  'PATCH /v1/webhooks/:id': 'admin',
  'DELETE /v1/webhooks/:id': 'admin',
  'POST /v1/webhooks/:id/rotate-secret': 'admin',
  'POST /v1/webhooks/:id/test': 'write:tenants',
  'GET /v1/webhooks/:id/deliveries': 'read:tenants',
  'GET /v1/webhooks/:id/deliveries/:deliveryId': 'read:tenants',
  'POST /v1/webhooks/:id/deliveries/:deliveryId/resend': 'write:tenants',
  'GET /api/settings/integrations': 'read:tenants',
  'POST /api/settings/integrations/:type/connect': 'admin',
  'DELETE /api/settings/integrations/:type': 'admin',
  'GET /api/settings/api-keys': 'admin',
  'POST /api/settings/api-keys': 'admin',
  'PATCH /api/settings/api-keys/:id': 'admin',
  'DELETE /api/settings/api-keys/:id': 'admin',
  'GET /api/settings/oauth-clients': 'admin',
  'POST /api/settings/oauth-clients': 'admin',
  'DELETE /api/settings/oauth-clients/:id': 'admin',
  'GET /api/settings/members': 'admin',
  'POST /api/settings/members': 'admin@live',
  'PATCH /api/settings/members/:id': 'admin@live',
  'DELETE /api/settings/members/:id': 'admin@live',
  // The live environment's cloud connection: live Admin only, reading included (docs/microsoft365.md).
  'GET /api/settings/cloud-connection': 'admin@live',
  'PUT /api/settings/cloud-connection': 'admin@live',
  'POST /api/settings/cloud-connection/test': 'admin@live',
  'DELETE /api/settings/cloud-connection': 'admin@live',
  'GET /api/msp-portal/tenants/stats': 'msp:read',
  'GET /api/msp-portal/license-intelligence/summary': 'msp:read',
  'GET /api/msp-portal/tenant-groups': 'read:tenants',
  'POST /api/msp-portal/tenant-groups': 'write:tenants',
  'GET /api/msp-portal/tenant-groups/:id': 'read:tenants',
  'PATCH /api/msp-portal/tenant-groups/:id': 'write:tenants',
  'DELETE /api/msp-portal/tenant-groups/:id': 'write:tenants!',
  'POST /api/msp-portal/tenant-groups/:id/members': 'write:tenants',
  'DELETE /api/msp-portal/tenant-groups/:id/members': 'write:tenants!',
  'GET /api/msp-portal/users/search': 'read:users',
  'GET /api/identity/users': 'read:users',
  'POST /api/identity/users/invite': 'write:users',
  'POST /api/identity/users/:id/resend-invite': 'write:users',
  'GET /api/identity/users/stale-guests': 'read:users',
  'DELETE /api/identity/users/:id': 'write:users!',
  'GET /api/identity/users/deleted': 'read:users',
  'POST /api/identity/users/:id/restore': 'write:users',
  'DELETE /api/identity/users/:id/permanent': 'write:users!',
  'GET /api/identity/contacts': 'read:users',
  'POST /api/identity/contacts': 'write:users',
  'PUT /api/identity/contacts/:id': 'write:users',
  'DELETE /api/identity/contacts/:id': 'write:users!',
  'POST /api/identity/contacts/bulk': 'write:users',
  'GET /api/exchange/restricted-users': 'read:tenants',
  'GET /api/exchange/restricted-users/history': 'read:tenants',
  'GET /api/exchange/restricted-users/:id': 'read:tenants',
  'POST /api/exchange/restricted-users/:id/unblock': 'write:tenants',
  'GET /api/security/alerts': 'read:tenants',
  'GET /api/security/alerts/statistics': 'read:tenants',
  'GET /api/security/alerts/:id': 'read:tenants',
  'GET /api/security/device-security': 'read:tenants',
  'GET /api/security/device-security/recommendations': 'read:tenants',
  'GET /api/security/device-security/:deviceId': 'read:tenants',
  'GET /api/security/devices/:id/isolation-status': 'read:tenants',
  'GET /api/security/endpoint-dlp/policies': 'read:tenants',
  'GET /api/security/endpoint-dlp/alerts': 'read:tenants',
  'GET /api/backup/snapshots': 'read:tenants',
  'GET /api/backup/snapshots/:id/items': 'read:tenants',
  'GET /api/backup/restore/history': 'read:tenants',
  'GET /api/backup/restore/:jobId': 'read:tenants',
  'GET /api/compliance/connectors': 'read:tenants',
  'GET /api/compliance/connectors/:id/status': 'read:tenants',
  'GET /api/compliance/connectors/:id': 'read:tenants',
  'GET /api/compliance/connectors/:id/history': 'read:tenants',
  'GET /api/security/recommendations': 'read:tenants',
  'GET /api/security/alerts/:id/comments': 'read:tenants',
  'GET /api/security/recommendations/apply-operations/:operationId': 'read:tenants',
  'GET /api/security/recommendations/:id': 'read:tenants',
  'GET /api/security/info-barriers/segments': 'read:tenants',
  'GET /api/security/info-barriers/policies': 'read:tenants',
  'GET /api/security/info-barriers/apply': 'read:tenants',
  'PATCH /api/security/alerts/:id': 'write:tenants',
  'POST /api/security/alerts/:id/comments': 'write:tenants',
  'POST /api/security/device-security/:deviceId/isolate': 'write:tenants',
  'POST /api/security/device-security/:deviceId/scan': 'write:tenants',
  'POST /api/security/devices/:id/isolate': 'write:tenants',
  'POST /api/security/devices/:id/release': 'write:tenants',
  'POST /api/backup/restore': 'write:tenants',
  'POST /api/backup/restore/:jobId/cancel': 'write:tenants',
  'POST /api/compliance/connectors': 'write:tenants',
  'PUT /api/compliance/connectors/:id': 'write:tenants',
  'POST /api/security/recommendations/:id/apply': 'write:tenants',
  'POST /api/security/recommendations/:id/dismiss': 'write:tenants',
  'POST /api/security/recommendations/:id/snooze': 'write:tenants',
  'POST /api/security/recommendations/:id/reopen': 'write:tenants',
  'POST /api/security/info-barriers/segments': 'write:tenants',
  'POST /api/security/info-barriers/policies': 'write:tenants',
  'POST /api/security/info-barriers/apply': 'write:tenants',
  'GET /api/security-vendor/secure-score': 'msp:read',
  'GET /api/user-management-identity/users': 'read:users',
  'GET /api/user-management-identity/users/bulk/:operationId': 'read:users',
  'POST /api/user-management-identity/users/bulk/:operationId/retry': 'write:users',
  'GET /api/user-management-identity/users/:userId': 'read:users',
  'GET /api/user-management-identity/users/:userId/offboard/:offboardingId': 'read:users',
  'GET /api/identity/users/:id/onedrive': 'read:users',
  'POST /api/user-management-identity/users': 'write:users',
  'POST /api/user-management-identity/users/bulk': 'write:users',
  'PUT /api/user-management-identity/users/:userId': 'write:users',
  'POST /api/user-management-identity/users/:userId/reset-password': 'write:users',
  'POST /api/user-management-identity/users/:userId/offboard': 'write:users',
  'POST /api/user-management-identity/users/:userId/offboard/:offboardingId/retry': 'write:users',
  'POST /api/identity/users/:id/onedrive/access': 'write:users',
  'GET /api/devices/enrollment-restrictions': 'read:tenants',
  'POST /api/devices/enrollment-restrictions': 'write:tenants',
  'PUT /api/devices/enrollment-restrictions/priority': 'write:tenants',
  'GET /api/devices/enrollment-restrictions/blocked': 'read:tenants',
  'PUT /api/devices/enrollment-restrictions/:id': 'write:tenants',
  'GET /api/device-management-vendor/dashboard': 'read:tenants',
  'GET /api/device-management-vendor/dashboard/compliance': 'read:tenants',
  'GET /api/device-management-vendor/dashboard/enrollment': 'read:tenants',
  'GET /api/device-management-vendor/dashboard/platforms': 'read:tenants',
};

/**
 * The routes the tests walk: this table's rows, so that the file need not evaluate the app's modules for the
 * route list before its tests are declared (src/features.ts: about 1 s of CPU). The first test holds the rows
 * equal to the server's route table (onServer `compiledRoutes`), which also gives each route's GraphQL document.
 */
const ROUTES = Object.keys(EXPECTED).map((name) => {
  const [method, url] = name.split(' ');
  const mount = url.startsWith('/v1/') ? '/v1' : '/api';
  return { name, mount, method, path: url.slice(mount.length) };
});
const READ_SCOPES = ['read:tenants', 'read:users', 'read:licenses', 'msp:read'];
const KEY_GRANTS: Record<'read' | 'write' | 'admin', string[]> = {
  read: READ_SCOPES,
  write: [...READ_SCOPES, 'write:tenants', 'write:users', 'write:licenses'],
  admin: [...READ_SCOPES, 'write:tenants', 'write:users', 'write:licenses', 'admin'],
};

/** The credentials of this test are all sandbox ones. */
function keyMay(level: keyof typeof KEY_GRANTS, needs: string): boolean {
  if (needs.endsWith('@live')) return false;
  if (level === 'admin') return true;
  return !needs.endsWith('!') && KEY_GRANTS[level].includes(needs);
}

function scopeMay(scope: string, needs: string): boolean {
  if (needs.endsWith('@live')) return false;
  const permission = needs.replace('!', '');
  return scope === 'admin' || scope === permission || scope === permission.replace('read:', 'write:');
}

let app: SharedApp;
let org: OrganizationWithKeys;
const tokens = new Map<string, string>();
/** The server's route table: each route's GraphQL document by `METHOD /mount/path`. */
const operations = new Map<string, string>();

beforeAll(async () => {
  // Custom plan, unlimited: ~100 routes × 12 credentials × 2 passes is past the Scale plan's 1,000 a minute.
  ({ app, org } = await sharedSuite({ organization: { plan: Plan.CUSTOM, customRateLimitPerMinute: null } }));
  const [client, member, routes] = await Promise.all([
    createOAuthClient(app, org.scope),
    createMember(app, org.organization.id),
    onServer(app, 'compiledRoutes'),
  ]);
  for (const { prefix, definition } of routes)
    operations.set(`${definition.method} ${prefix}${definition.path}`, definition.operation);
  for (const scope of Object.values(Permission))
    tokens.set(scope, await issueAccessToken(app, client, member, [scope]));
});
afterAll(() => app.stop());

/**
 * Calls a route with input that is wrong in every way (ids that cannot exist, a body that is not even JSON, an
 * unknown tenant), so a caller without the permission can only learn it from a 403 that comes first.
 */
async function callBadly(mount: string, method: string, path: string, credential: string) {
  const url = mount + path.replace(/:type\b/, 'webhook').replace(/:\w+/g, 'not-a-uuid');
  const rawBody = method === 'GET' || method === 'DELETE' ? undefined : '{"malformed": ';
  const res = await app.request<Envelope>(method, url, {
    key: credential,
    rawBody,
    headers: { 'x-tenant-id': '00000000-0000-4000-8000-000000000000' },
  });
  return res.status === 403 ? `403 ${res.body.error?.code}` : 'not 403';
}

describe('every REST route: permission checked before input and existence (issue #9 items 5 and 6)', () => {
  it('has a hand-written expectation for every route of the route table, and no stale row', () => {
    const names = [...operations.keys()];
    expect(names.length).toBeGreaterThan(100); // the table was read
    expect(names.filter((name) => !(name in EXPECTED))).toEqual([]);
    expect(Object.keys(EXPECTED).filter((name) => !operations.has(name))).toEqual([]);
  });

  it.each(ROUTES.map(({ name, mount, method, path }) => [name, mount, method, path] as const))(
    '%s',
    async (name, mount, method, path) => {
      const needs = EXPECTED[name];
      // Every credential of the route at once: each call stands alone (nothing is written, the plan is
      // unlimited), and the outcome is compared as a whole.
      const credentials: Array<[label: string, credential: string, may: boolean]> = [
        ...(['read', 'write', 'admin'] as const).map(
          (level) => [`${level} key`, org.keys[level], keyMay(level, needs)] as [string, string, boolean],
        ),
        ['live admin key', org.liveAdminKey, true],
        ...[...tokens].map(
          ([scope, token]) => [`token ${scope}`, token, scopeMay(scope, needs)] as [string, string, boolean],
        ),
      ];
      const outcomes = await Promise.all(
        credentials.map(([, credential]) => callBadly(mount, method, path, credential)),
      );
      const outcome = Object.fromEntries(credentials.map(([label], index) => [label, outcomes[index]]));
      const expected = Object.fromEntries(
        credentials.map(([label, , may]) => [label, may ? 'not 403' : '403 FORBIDDEN']),
      );
      expect(outcome).toEqual(expected);
    },
  );
});

describe('every route’s GraphQL document: FORBIDDEN before its variables are looked at', () => {
  it.each(ROUTES.map(({ name }) => [name] as const))('%s', async (name) => {
    const needs = EXPECTED[name];
    const operation = operations.get(name);
    if (operation === undefined) throw new Error(`${name} is not in the server's route table`);
    const levels = ['read', 'write', 'admin'] as const;
    const answers = await Promise.all(levels.map((level) => app.graphql(org.keys[level], operation, {})));
    for (const [index, level] of levels.entries()) {
      const res = answers[index];
      const code = res.body.errors?.[0]?.extensions.code;
      if (keyMay(level, needs)) expect({ level, code }).not.toEqual({ level, code: 'FORBIDDEN' });
      else expect({ level, status: res.status, code }).toEqual({ level, status: 403, code: 'FORBIDDEN' });
    }
  });
});
