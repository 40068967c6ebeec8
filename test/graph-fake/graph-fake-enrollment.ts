import { randomUUID } from 'node:crypto';
import type {
  DeviceEnrollmentLimitConfiguration,
  DeviceEnrollmentPlatformRestrictionsConfiguration,
  EnrollmentConfigurationAssignment,
} from '@microsoft/microsoft-graph-types';
import { graphError, type GraphCall } from './graph-fake-graph.js';
import type { FakeReply } from './graph-fake-login.js';
import { tenantSlot, type FakeTenant, type IssuedToken } from './graph-fake-state.js';

/**
 * Intune's enrollment restrictions as the fake serves them (learn.microsoft.com, "deviceEnrollmentConfiguration
 * resource type", "Create/Update/Delete deviceEnrollmentLimitConfiguration", "setPriority action", "assign
 * action"): `GET/POST /deviceManagement/deviceEnrollmentConfigurations`, `GET/PATCH/DELETE .../{id}`,
 * `POST .../{id}/setPriority {priority}` (204) and `POST .../{id}/assign {enrollmentConfigurationAssignments}`
 * (204). Every tenant starts with Intune's defaults (priority 0: the platform restrictions, the device limit of
 * 15, Windows Hello for Business), which cannot be deleted, reordered or assigned. Priorities are per kind, as
 * the Intune admin center shows them ("Set enrollment restrictions": up to 25 restrictions per type, each type
 * with its default applied last): a create goes last of its kind, setPriority moves one within its kind (the
 * others shift; beyond the kind's number: 400) and a delete closes the gap.
 */
export type FakeEnrollmentConfiguration = DeviceEnrollmentLimitConfiguration &
  DeviceEnrollmentPlatformRestrictionsConfiguration & {
    '@odata.type': string;
    id: string;
    assignments?: EnrollmentConfigurationAssignment[];
  };

const TYPES = {
  limit: '#microsoft.graph.deviceEnrollmentLimitConfiguration',
  platform: '#microsoft.graph.deviceEnrollmentPlatformRestrictionsConfiguration',
  hello: '#microsoft.graph.deviceEnrollmentWindowsHelloForBusinessConfiguration',
};
const WRITABLE_TYPES = new Set([TYPES.limit, TYPES.platform]);
const ROLES = {
  read: ['DeviceManagementServiceConfig.Read.All', 'DeviceManagementServiceConfig.ReadWrite.All'],
  write: ['DeviceManagementServiceConfig.ReadWrite.All'],
};
const PATH = /^\/deviceManagement\/deviceEnrollmentConfigurations(?:\/([^/]+))?(?:\/(setPriority|assign))?$/;

const states = tenantSlot<FakeEnrollmentConfiguration[]>('enrollment');

/** The tenant's enrollment configurations (Intune's defaults on first use); tests read and change them. */
export function fakeEnrollmentConfigurations(tenant: FakeTenant): FakeEnrollmentConfiguration[] {
  let configurations = states.get(tenant);
  if (!configurations) {
    const stamp = new Date(Date.UTC(2026, 0, 1)).toISOString();
    const common = { priority: 0, version: 1, createdDateTime: stamp, lastModifiedDateTime: stamp };
    const allowed = { platformBlocked: false, personalDeviceEnrollmentBlocked: false };
    configurations = [
      {
        '@odata.type': TYPES.platform,
        id: `${tenant.id}_DefaultPlatformRestrictions`,
        displayName: 'All users and all devices',
        description:
          'This is the default Device Type Restriction applied with the lowest priority to all users regardless of group membership.',
        ...common,
        iosRestriction: allowed,
        windowsRestriction: allowed,
        windowsMobileRestriction: allowed,
        androidRestriction: allowed,
        macOSRestriction: allowed,
      },
      {
        '@odata.type': TYPES.limit,
        id: `${tenant.id}_DefaultLimit`,
        displayName: 'All users and all devices',
        description:
          'This is the default Device Limit Restriction applied with the lowest priority to all users regardless of group membership.',
        ...common,
        limit: 15,
      },
      {
        '@odata.type': TYPES.hello,
        id: `${tenant.id}_DefaultWindowsHelloForBusiness`,
        displayName: 'All users and all devices',
        ...common,
      },
    ];
    states.set(tenant, configurations);
  }
  return configurations;
}

const badRequest = (call: GraphCall, message: string) =>
  graphError(400, 'BadRequest', message, call.clientRequestId);

/** The properties a create or an update may set: the type's own, as documented. */
function settingsOf(body: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, priority: _priority, createdDateTime: _c, lastModifiedDateTime: _m, ...rest } = body;
  void [_id, _priority, _c, _m];
  return rest;
}

/** The non-default configurations of one kind, first first. */
function ordered(configurations: FakeEnrollmentConfiguration[], type: string): FakeEnrollmentConfiguration[] {
  return configurations
    .filter((found) => found['@odata.type'] === type && found.priority! > 0)
    .sort((a, b) => a.priority! - b.priority!);
}

/** The reply to an enrollment configuration request, or undefined when the call is not one. */
export function handleEnrollment(
  tenant: FakeTenant,
  token: IssuedToken,
  call: GraphCall,
): FakeReply | undefined {
  const match = PATH.exec(call.path);
  if (!match) return undefined;
  const roles = call.method === 'GET' ? ROLES.read : ROLES.write;
  if (!roles.some((role) => token.roles.includes(role)))
    return graphError(
      403,
      'Forbidden',
      'Application is not authorized to perform this operation.',
      call.clientRequestId,
    );
  const configurations = fakeEnrollmentConfigurations(tenant);
  const [, rawId, action] = match;
  const body = (call.body ?? {}) as Record<string, unknown>;
  const now = new Date().toISOString();
  if (rawId === undefined) {
    if (call.method === 'GET') return { status: 200, body: { value: configurations } };
    if (call.method !== 'POST') return badRequest(call, `No ${call.method} on the collection.`);
    const type = body['@odata.type'];
    if (typeof type !== 'string' || !WRITABLE_TYPES.has(type))
      return badRequest(call, `The fake creates limit and platform restrictions only, not ${String(type)}.`);
    const taken = configurations.filter((found) => found['@odata.type'] === type && found.priority! > 0);
    const created = {
      ...settingsOf(body),
      '@odata.type': type,
      id: `${randomUUID()}_${type === TYPES.limit ? 'Limit' : 'PlatformRestrictions'}`,
      priority: Math.max(0, ...taken.map((found) => found.priority!)) + 1,
      version: 1,
      createdDateTime: now,
      lastModifiedDateTime: now,
    } as FakeEnrollmentConfiguration;
    configurations.push(created);
    return { status: 201, body: created };
  }
  const id = decodeURIComponent(rawId);
  const index = configurations.findIndex((found) => found.id === id);
  if (index < 0) return graphError(404, 'ResourceNotFound', `No configuration ${id}.`, call.clientRequestId);
  const configuration = configurations[index];
  const isDefault = configuration.priority === 0;
  if (action === 'setPriority' && call.method === 'POST') {
    const priority = body.priority;
    if (isDefault) return badRequest(call, 'The priority of a default configuration cannot be changed.');
    const kind = ordered(configurations, configuration['@odata.type']);
    if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 1 || priority > kind.length)
      return badRequest(call, `priority must be a whole number from 1 to ${kind.length}.`);
    // Intune keeps each kind's order on its own, 1..n: the configuration moves, the others shift.
    kind.splice(kind.indexOf(configuration), 1);
    kind.splice(priority - 1, 0, configuration);
    kind.forEach((found, i) => (found.priority = i + 1));
    return { status: 204, body: undefined };
  }
  if (action === 'assign' && call.method === 'POST') {
    const assignments = body.enrollmentConfigurationAssignments;
    if (isDefault)
      return badRequest(call, 'A default configuration applies to all users and cannot be assigned.');
    if (!Array.isArray(assignments))
      return badRequest(call, 'enrollmentConfigurationAssignments is required.');
    configuration.assignments = (assignments as EnrollmentConfigurationAssignment[]).map((assignment) => ({
      id: randomUUID(),
      target: assignment.target,
    }));
    return { status: 204, body: undefined };
  }
  if (action !== undefined) return badRequest(call, `No ${call.method} ${action}.`);
  if (call.method === 'GET') return { status: 200, body: configuration };
  if (call.method === 'DELETE') {
    if (isDefault) return badRequest(call, 'A default configuration cannot be deleted.');
    configurations.splice(index, 1);
    ordered(configurations, configuration['@odata.type']).forEach((found, i) => (found.priority = i + 1));
    return { status: 204, body: undefined };
  }
  if (call.method !== 'PATCH') return badRequest(call, `No ${call.method} on a configuration.`);
  if (body['@odata.type'] !== configuration['@odata.type'])
    return badRequest(call, `@odata.type must be ${configuration['@odata.type']}.`);
  Object.assign(configuration, settingsOf(body), {
    version: (configuration.version ?? 1) + 1,
    lastModifiedDateTime: now,
  });
  return { status: 200, body: configuration };
}
