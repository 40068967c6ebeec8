import { randomUUID } from 'node:crypto';
import type { ManagedDevice } from '@microsoft/microsoft-graph-types';
import { graphError, type GraphCall } from './graph-fake-graph.js';
import type { FakeReply } from './graph-fake-login.js';
import { tenantSlot, type FakeTenant, type GraphFakeState, type IssuedToken } from './graph-fake-state.js';

/**
 * Intune's managed devices on Graph v1.0 as the fake serves them (learn.microsoft.com, "List managedDevices"):
 * `GET /deviceManagement/managedDevices` with `$select`, in pages of the fake's page size (`$top`, and an
 * `@odata.nextLink` carrying `$skiptoken`), `GET /deviceManagement/managedDevices/{id}`.
 */
const devicesOf = tenantSlot<ManagedDevice[]>('devices');

/** The tenant's managed devices (tests push to it). */
export function fakeManagedDevices(tenant: FakeTenant): ManagedDevice[] {
  let devices = devicesOf.get(tenant);
  if (!devices) {
    devices = [];
    devicesOf.set(tenant, devices);
  }
  return devices;
}

/** A managed device shaped like Intune's (a corporate Windows laptop, compliant, unless told otherwise). */
export function fakeManagedDevice(fields: Partial<ManagedDevice> = {}): ManagedDevice {
  return {
    id: randomUUID(),
    deviceName: 'DESKTOP-4F2K9QH',
    operatingSystem: 'Windows',
    osVersion: '10.0.22631.4460',
    managedDeviceOwnerType: 'company',
    complianceState: 'compliant',
    // Intune's "no grace period" date.
    complianceGracePeriodExpirationDateTime: '9999-12-31T23:59:59Z',
    enrolledDateTime: '2026-03-02T09:15:00Z',
    lastSyncDateTime: '2026-11-26T07:40:00Z',
    userId: null,
    userPrincipalName: null,
    azureADDeviceId: randomUUID(),
    manufacturer: 'Dell Inc.',
    model: 'Latitude 7440',
    serialNumber: randomUUID().slice(0, 7).toUpperCase(),
    isEncrypted: true,
    managementAgent: 'mdm',
    ...fields,
  };
}

/** Application permissions that allow reading managed devices (Graph's permission reference). */
const READ_ROLES = [
  'DeviceManagementManagedDevices.Read.All',
  'DeviceManagementManagedDevices.ReadWrite.All',
];

function project(device: ManagedDevice, select: string | null): Partial<ManagedDevice> {
  if (!select) return device;
  const fields = new Set(['id', ...select.split(',')]);
  return Object.fromEntries(Object.entries(device).filter(([key]) => fields.has(key)));
}

/** The reply to a managed-devices request, or undefined when the call is not one (handleGraph goes on). */
export function handleDevices(
  state: GraphFakeState,
  tenant: FakeTenant,
  token: IssuedToken,
  base: string,
  call: GraphCall,
): FakeReply | undefined {
  const match = /^\/deviceManagement\/managedDevices(?:\/([^/]+))?$/.exec(call.path);
  if (!match) return undefined;
  if (!READ_ROLES.some((role) => token.roles.includes(role)))
    return graphError(
      403,
      'Forbidden',
      'Application is not authorized to perform this operation. Application must have one of the following ' +
        'scopes: DeviceManagementManagedDevices.Read.All, DeviceManagementManagedDevices.ReadWrite.All',
      call.clientRequestId,
    );
  if (call.method !== 'GET')
    return graphError(405, 'BadRequest', `The fake does not serve ${call.method} ${call.path}.`);
  const devices = fakeManagedDevices(tenant);
  if (match[1]) {
    const device = devices.find((candidate) => candidate.id === decodeURIComponent(match[1]));
    return device
      ? { status: 200, body: project(device, call.query.get('$select')) }
      : graphError(404, 'ResourceNotFound', `Resource not found for the segment 'managedDevices'.`);
  }
  const skip = Number(call.query.get('$skiptoken') ?? 0);
  const top = Number(call.query.get('$top') ?? state.pageSize);
  const select = call.query.get('$select');
  const next = new URLSearchParams({
    ...(select ? { $select: select } : {}),
    $skiptoken: String(skip + top),
  });
  return {
    status: 200,
    body: {
      '@odata.context': `${base}/v1.0/$metadata#deviceManagement/managedDevices`,
      value: devices.slice(skip, skip + top).map((device) => project(device, select)),
      ...(skip + top < devices.length
        ? { '@odata.nextLink': `${base}/v1.0/deviceManagement/managedDevices?${next.toString()}` }
        : {}),
    },
  };
}
