import { buildAppSchema } from '../../src/schema.js';
import { compileRoute } from '../../rest-adapter/compile.js';
import { restRouter } from '../../rest-adapter/router.js';
import { FEATURE_ROUTES, VERSIONED_ROUTES } from '../../src/features.js';

/** SPEC 4.1, as written there (`:id` placeholders named as in the route table). */
const SPEC_4_1 = [
  'GET /tenants',
  'GET /tenants/:id',
  'POST /tenants/:id/sync',
  'GET /tenants/:id/users',
  'GET /tenants/:id/users/:userId',
  'POST /tenants/:id/users',
  'PATCH /tenants/:id/users/:userId',
  'DELETE /tenants/:id/users/:userId',
  'GET /tenants/:id/licenses',
  'GET /tenants/:id/licenses/assignments',
  'POST /tenants/:id/licenses/assign',
  'POST /tenants/:id/licenses/remove',
  'GET /webhooks',
  'POST /webhooks',
  'DELETE /webhooks/:id',
];

/** SPEC 4.2 paths served so far, as written there, under /api (and /v1/api). */
const SPEC_4_2 = [
  'GET /msp-portal/tenants/stats',
  'GET /msp-portal/license-intelligence/summary',
  'GET /identity/users',
  'POST /identity/users/invite',
  'POST /identity/users/:id/resend-invite',
  'GET /identity/users/stale-guests',
  'DELETE /identity/users/:id',
  'GET /identity/users/deleted',
  'POST /identity/users/:id/restore',
  'DELETE /identity/users/:id/permanent',
  'GET /identity/contacts',
  'POST /identity/contacts',
  'PUT /identity/contacts/:id',
  'DELETE /identity/contacts/:id',
  'POST /identity/contacts/bulk',
  'GET /exchange/restricted-users',
  'GET /exchange/restricted-users/:id',
  'POST /exchange/restricted-users/:id/unblock',
  'GET /exchange/restricted-users/history',
  'GET /security/device-security',
  'GET /security/device-security/:deviceId',
  'POST /security/device-security/:deviceId/isolate',
  'POST /security/device-security/:deviceId/scan',
  'GET /security/device-security/recommendations',
  'POST /security/devices/:id/isolate',
  'POST /security/devices/:id/release',
  'GET /security/devices/:id/isolation-status',
  'GET /security/endpoint-dlp/policies',
  'GET /security/endpoint-dlp/alerts',
  'GET /security/alerts',
  'GET /security/alerts/:id',
  'PATCH /security/alerts/:id',
  'POST /security/alerts/:id/comments',
  'GET /security/alerts/:id/comments',
  'GET /security/alerts/statistics',
  'POST /backup/restore',
  'GET /backup/restore/:jobId',
  'GET /backup/snapshots',
  'GET /backup/restore/history',
  'GET /compliance/connectors',
  'GET /compliance/connectors/:id',
  'POST /compliance/connectors',
  'GET /compliance/connectors/:id/status',
  'PUT /compliance/connectors/:id',
  'GET /compliance/connectors/:id/history',
  'GET /security/recommendations',
  'POST /security/recommendations/:id/apply',
  'GET /security-vendor/secure-score',
  'GET /security/info-barriers/segments',
  'POST /security/info-barriers/segments',
  'GET /security/info-barriers/policies',
  'POST /security/info-barriers/policies',
  'POST /security/info-barriers/apply',
  'GET /devices/enrollment-restrictions',
  'POST /devices/enrollment-restrictions',
  'PUT /devices/enrollment-restrictions/:id',
  'PUT /devices/enrollment-restrictions/priority',
  'GET /devices/enrollment-restrictions/blocked',
  'GET /device-management-vendor/dashboard',
  'GET /device-management-vendor/dashboard/compliance',
  'GET /device-management-vendor/dashboard/enrollment',
  'GET /device-management-vendor/dashboard/platforms',
];

const normalise = (route: string) => route.replace(/:[A-Za-z]+/g, ':param');

describe('REST route table', () => {
  const table = VERSIONED_ROUTES.map((route) => `${route.method} ${route.path}`);

  it('serves every path of SPEC 4.1 under /v1', () => {
    const served = new Set(table.map(normalise));
    expect(SPEC_4_1.filter((route) => !served.has(normalise(route)))).toEqual([]);
  });

  it('serves the SPEC 4.2 paths built so far under /api', () => {
    const served = new Set(FEATURE_ROUTES.map((route) => normalise(`${route.method} ${route.path}`)));
    expect(SPEC_4_2.filter((route) => !served.has(normalise(route)))).toEqual([]);
  });

  it('has no route twice', () => {
    const all = [...table, ...FEATURE_ROUTES.map((route) => `${route.method} /api${route.path}`)].map(
      normalise,
    );
    expect(all.length).toBe(new Set(all).size);
  });

  it('compiles every route against the schema (documents valid, variables mapped)', async () => {
    const schema = await buildAppSchema();
    for (const route of [...VERSIONED_ROUTES, ...FEATURE_ROUTES])
      expect(() => compileRoute(route, schema)).not.toThrow();
    // The routers compile them against the REST copy (SPEC enum spellings), all at start-up by default. Test
    // servers compile each route on its first request instead (test/helpers/test-app.ts): this is where every
    // route is checked as a server starting up would.
    const deps = { schema, contextFor: () => ({}) as never, logError: () => undefined };
    expect(restRouter(VERSIONED_ROUTES, deps).compiled).toHaveLength(VERSIONED_ROUTES.length);
    expect(restRouter(FEATURE_ROUTES, deps).compiled).toHaveLength(FEATURE_ROUTES.length);
  });
});
