import { CloudError, isCloudError } from '../cloud-error.js';
import type {
  CloudDeviceActionKind,
  CloudDeviceActionRecord,
  CloudDeviceActionRequest,
  CloudDeviceActionStatus,
} from '../security.provider.js';
import { defenderClientOf, type DefenderTenantClient } from './defender-client.js';
import type { DefenderActionStatus, DefenderMachine, DefenderMachineAction } from './defender-types.js';
import { MICROSOFT365 } from './graph-errors.js';
import type { GraphTenantClient } from './graph-client.js';

/**
 * Device actions through Defender for Endpoint's machine actions (learn.microsoft.com "Isolate machine",
 * "Release device from isolation", "Run antivirus scan", "Get machineAction"): permissions Machine.Isolate and
 * Machine.Scan, Machine.Read.All to find the machine by its Entra ID device id (our device's id).
 *
 * Safe to repeat: Defender takes no idempotency key, so, as Graph's user creation does (graph-users.ts), a
 * start looks before it writes: our request id is in the action's Comment, and the machine's actions are read
 * for it before posting. A job that died after the POST finds its action instead of isolating twice.
 */
const START: Record<CloudDeviceActionKind, { path: string; body: (type: string | null) => object }> = {
  Isolate: {
    path: 'isolate',
    body: (type) => ({ IsolationType: type === 'Selective' ? 'Selective' : 'Full' }),
  },
  Release: { path: 'unisolate', body: () => ({}) },
  Scan: { path: 'runAntiVirusScan', body: (type) => ({ ScanType: type === 'Full' ? 'Full' : 'Quick' }) },
};

const KIND_OF_TYPE: Record<string, CloudDeviceActionKind> = {
  Isolate: 'Isolate',
  Unisolate: 'Release',
  RunAntiVirusScan: 'Scan',
};

const STATUS: Record<DefenderActionStatus, CloudDeviceActionStatus> = {
  Pending: 'InProgress',
  InProgress: 'InProgress',
  Succeeded: 'Succeeded',
  Failed: 'Failed',
  TimeOut: 'Failed',
  Cancelled: 'Failed',
};

/** What our Comment ends with: the request id (safe to repeat) and our device id (read back from the action). */
const marker = (requestId: string, deviceExternalId: string) =>
  `[msp-action ${requestId} device ${deviceExternalId}]`;
const MARKER = /\[msp-action (\S+) device (\S+)\]/;

const quoted = (value: string) => `'${value.replace(/'/g, "''")}'`;

function failureReasonOf(action: DefenderMachineAction): string | null {
  if (action.status === 'Failed')
    return `Defender for Endpoint reports the action failed${action.errorHResult ? ` (error ${action.errorHResult})` : ''}`;
  if (action.status === 'TimeOut')
    return 'Defender for Endpoint timed the action out: the machine did not complete it in time';
  if (action.status === 'Cancelled')
    return `Cancelled in Defender for Endpoint${action.cancellationRequestor ? ` by ${action.cancellationRequestor}` : ''}${action.cancellationComment ? `: ${action.cancellationComment}` : ''}`;
  return null;
}

/** Defender's machine action as our record (deviceExternalId and requestId from our Comment's marker). */
export function deviceActionRecordOf(action: DefenderMachineAction): CloudDeviceActionRecord {
  const [, requestId = '', deviceExternalId = ''] = MARKER.exec(action.requestorComment ?? '') ?? [];
  const status = STATUS[action.status] ?? 'InProgress';
  const kind = KIND_OF_TYPE[action.type] ?? 'Scan';
  const completedAt = status === 'InProgress' ? null : (action.lastUpdateDateTimeUtc ?? null);
  return {
    externalId: action.id,
    requestId,
    deviceExternalId,
    kind,
    type: action.scope ?? null,
    status,
    startedAt: action.creationDateTimeUtc,
    completedAt,
    failureReason: failureReasonOf(action),
    // Defender's scan action does not count threats: what a scan finds arrives as alerts.
    threatsFound: null,
    durationSeconds:
      kind === 'Scan' && status === 'Succeeded' && completedAt
        ? Math.max(0, Math.round((Date.parse(completedAt) - Date.parse(action.creationDateTimeUtc)) / 1000))
        : null,
  };
}

async function machineOf(defender: DefenderTenantClient, deviceExternalId: string): Promise<DefenderMachine> {
  const machines = await defender.get<{ value?: DefenderMachine[] }>('/api/machines', {
    $filter: `aadDeviceId eq ${quoted(deviceExternalId)}`,
  });
  const machine = machines.value?.[0];
  if (!machine)
    throw new CloudError(
      'Refused',
      `Device ${deviceExternalId} is not onboarded to Defender for Endpoint: it has no machine there to act on`,
      { provider: MICROSOFT365 },
    );
  return machine;
}

async function startDeviceAction(
  defender: DefenderTenantClient,
  deviceExternalId: string,
  request: CloudDeviceActionRequest,
): Promise<CloudDeviceActionRecord> {
  const machine = await machineOf(defender, deviceExternalId);
  const tag = marker(request.requestId, deviceExternalId);
  for await (const page of defender.pages<DefenderMachineAction>('/api/machineactions', {
    $filter: `machineId eq ${quoted(machine.id)}`,
  })) {
    const earlier = page.find((action) => action.requestorComment?.includes(tag));
    if (earlier) return deviceActionRecordOf(earlier);
  }
  const start = START[request.kind];
  // Defender allows 100 machine actions a minute and 1,500 an hour per tenant, shared by every instance.
  await defender.takeCallBudget('defender-machine-actions');
  const action = await defender.post<DefenderMachineAction>(
    `/api/machines/${encodeURIComponent(machine.id)}/${start.path}`,
    { Comment: [request.comment.trim(), tag].filter(Boolean).join(' '), ...start.body(request.type) },
  );
  return deviceActionRecordOf(action);
}

async function getDeviceAction(
  defender: DefenderTenantClient,
  actionExternalId: string,
): Promise<CloudDeviceActionRecord | null> {
  try {
    return deviceActionRecordOf(
      await defender.get<DefenderMachineAction>(
        `/api/machineactions/${encodeURIComponent(actionExternalId)}`,
      ),
    );
  } catch (error) {
    if (isCloudError(error, 'NotFound')) return null;
    throw error;
  }
}

/** The device-action methods of a tenant's security client (graph-security.ts). */
export function defenderMachineActions(graph: GraphTenantClient) {
  return {
    startDeviceAction: (deviceExternalId: string, request: CloudDeviceActionRequest) =>
      startDeviceAction(defenderClientOf(graph), deviceExternalId, request),
    getDeviceAction: (actionExternalId: string) => getDeviceAction(defenderClientOf(graph), actionExternalId),
  };
}
