import { readFileSync } from 'node:fs';

interface OpenApi {
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
}

/**
 * REST routes whose live answer can be 501 NOT_SUPPORTED: those that call, inside the request, an area
 * the Microsoft 365 provider has no API for (graph-capabilities.ts), or check before starting a job that the
 * cloud can do every step asked for (an offboarding's mailbox conversion). Other writes done by jobs (device
 * actions, information barriers, restores) fail their job instead, and lists read from our copy (synced)
 * never reach the cloud in the request.
 */
const REACHES_UNSUPPORTED_AREA = [
  'POST /api/backup/restore', // backup: the snapshot and its items are checked upstream
  'GET /api/backup/snapshots/{id}/items', // backup: the item tree is read upstream
  'POST /api/compliance/connectors', // complianceConnectorSources: the source is tested first
  'PUT /api/compliance/connectors/{id}', // the same, when the source changes
  'GET /api/exchange/restricted-users', // restrictedSenders: every list reads the cloud
  'GET /api/exchange/restricted-users/history',
  'POST /api/exchange/restricted-users/{id}/unblock',
  'POST /api/identity/contacts', // mailContacts
  'PUT /api/identity/contacts/{id}',
  'DELETE /api/identity/contacts/{id}',
  'POST /api/identity/contacts/bulk',
  'GET /api/identity/users/{id}/onedrive', // deletedUserOneDrive
  'POST /api/identity/users/{id}/onedrive/access',
  'PATCH /api/security/alerts/{id}', // securityAlerts: the status moves upstream first
  'POST /api/user-management-identity/users/{userId}/offboard', // sharedMailboxes: refused before it starts
  'POST /api/user-management-identity/users/{userId}/offboard/{offboardingId}/retry',
];

/** Reads of our synced copy and writes of supported areas: never 501. */
const NEVER_NOT_SUPPORTED = [
  'GET /api/identity/contacts',
  'GET /api/security/alerts',
  'GET /api/security/alerts/{id}',
  'GET /api/backup/snapshots',
  'GET /v1/tenants/{id}/licenses',
  'POST /v1/tenants/{id}/licenses/assign',
  'POST /v1/tenants/{id}/licenses/remove',
  'POST /api/user-management-identity/users/{userId}/reset-password',
];

it('lists 501 NOT_SUPPORTED in the OpenAPI document on the routes that reach an unsupported area', () => {
  const document = JSON.parse(readFileSync('schema/openapi.json', 'utf8')) as OpenApi;
  const with501 = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => operation.responses?.['501'] !== undefined)
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
  expect(with501).toEqual(expect.arrayContaining(REACHES_UNSUPPORTED_AREA));
  for (const route of NEVER_NOT_SUPPORTED) {
    const [method, path] = route.split(' ');
    expect(document.paths[path]?.[method.toLowerCase()]).toBeDefined();
  }
  expect(with501.filter((route) => NEVER_NOT_SUPPORTED.includes(route))).toEqual([]);
});
