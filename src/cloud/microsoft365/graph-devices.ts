import type { ComplianceState, ManagedDevice } from '@microsoft/microsoft-graph-types';
import type {
  CloudComplianceState,
  CloudDeviceHealth,
  CloudDevicePages,
  CloudDeviceRecord,
  CloudDevicesNotListed,
  CloudDeviceRiskLevel,
  CloudOnboardingStatus,
  CloudOsPlatform,
} from '../security.provider.js';
import { defenderClientOf, isDefenderMissing, type DefenderTenantClient } from './defender-client.js';
import { openRecommendationsByMachine } from './defender-recommendations.js';
import type { DefenderMachine, DefenderMachineAction } from './defender-types.js';
import type { GraphTenantClient } from './graph-client.js';

/**
 * A tenant's devices: Intune's managed devices (`GET /deviceManagement/managedDevices`, Graph, permission
 * DeviceManagementManagedDevices.Read.All) joined with Defender for Endpoint's machines (`GET /api/machines`,
 * Machine.Read.All) by the Entra ID device id, the one id both carry (and alerts' device evidence too). Intune
 * says what the device is (OS, ownership, compliance, enrolment, user); Defender how exposed it is (risk,
 * exposure, sensor health, onboarding, open security recommendations: defender-recommendations.ts) and, from
 * its succeeded isolate/release actions, whether it is isolated.
 * docs/microsoft365.md "Devices" has the mapping and what is left.
 */
const MANAGED_DEVICES = '/deviceManagement/managedDevices';
const MANAGED_DEVICE_SELECT = [
  'id',
  'deviceName',
  'operatingSystem',
  'osVersion',
  'managedDeviceOwnerType',
  'complianceState',
  'complianceGracePeriodExpirationDateTime',
  'enrolledDateTime',
  'lastSyncDateTime',
  'userId',
  'azureADDeviceId',
  'manufacturer',
  'model',
].join(',');

/** Intune writes this id for a device it knows no Entra ID registration of. */
const NO_ENTRA_ID = '00000000-0000-0000-0000-000000000000';

/** The id a device is known by: its Entra ID device id, or Intune's own id when it has none. */
export function deviceKeyOf(device: ManagedDevice): string {
  const entraId = device.azureADDeviceId?.toLowerCase();
  return entraId && entraId !== NO_ENTRA_ID ? entraId : (device.id ?? '');
}

/** Intune's free-text operatingSystem ("Windows", "iOS", "iPadOS", "macOS", "Android", "AndroidForWork"…). */
function platformOf(operatingSystem: string | null | undefined): CloudOsPlatform | null {
  const os = (operatingSystem ?? '').toLowerCase();
  if (os.startsWith('windows')) return 'Windows';
  if (os.startsWith('mac')) return 'macOS';
  if (os === 'ios' || os === 'ipados') return 'iOS';
  if (os.startsWith('android')) return 'Android';
  if (os.startsWith('linux') || os === 'ubuntu' || os === 'redhat') return 'Linux';
  return null;
}

const COMPLIANCE: Record<ComplianceState, CloudComplianceState> = {
  compliant: 'Compliant',
  noncompliant: 'Non-Compliant',
  conflict: 'Non-Compliant',
  error: 'Non-Compliant',
  inGracePeriod: 'In Grace Period',
  unknown: 'Not Evaluated',
  configManager: 'Not Evaluated',
};

const RISK: Record<string, CloudDeviceRiskLevel> = {
  High: 'High',
  Medium: 'Medium',
  Low: 'Low',
  Informational: 'Low',
  None: 'Low',
};

/**
 * Defender gives a machine's exposure as a level; our exposure score (0..100) is the middle of the level's band
 * in Defender's exposure score (Low 0–29, Medium 30–69, High 70–100).
 */
const EXPOSURE: Record<string, number> = { None: 0, Low: 15, Medium: 50, High: 85 };

const HEALTH: Record<string, CloudDeviceHealth> = { Active: 'Active', Inactive: 'Inactive' };

const ONBOARDING: Record<string, CloudOnboardingStatus> = {
  Onboarded: 'Onboarded',
  CanBeOnboarded: 'Can be Onboarded',
  Unsupported: 'Unsupported',
  // Defender has not gathered enough to tell yet.
  InsufficientInfo: 'Pending',
};

const later = (a: string | null | undefined, b: string | null | undefined): string =>
  !a ? (b ?? '') : !b ? a : Date.parse(a) >= Date.parse(b) ? a : b;

/** Our device from Intune's managed device and Defender's machine (null: Defender does not know it). */
export function deviceRecordOf(
  device: ManagedDevice,
  machine: DefenderMachine | null,
  defender: { isolation: DefenderMachineAction | null; openRecommendations: string[] } = {
    isolation: null,
    openRecommendations: [],
  },
): CloudDeviceRecord | null {
  const osPlatform = platformOf(device.operatingSystem);
  if (!osPlatform) return null;
  const compliance = COMPLIANCE[device.complianceState ?? 'unknown'] ?? 'Not Evaluated';
  return {
    externalId: deviceKeyOf(device),
    deviceName: device.deviceName ?? machine?.computerDnsName ?? '',
    osPlatform,
    osVersion: device.osVersion ?? '',
    // Intune's "unknown" ownership is treated as personal: nothing says the organization owns it.
    ownership: device.managedDeviceOwnerType === 'company' ? 'Corporate' : 'Personal',
    manufacturer: device.manufacturer ?? '',
    model: device.model ?? '',
    enrolledAt: device.enrolledDateTime ?? '',
    complianceState: compliance,
    complianceGraceExpiresAt:
      compliance === 'In Grace Period' ? (device.complianceGracePeriodExpirationDateTime ?? null) : null,
    userExternalId: device.userId || null,
    // Without a Defender machine nothing is known of its risk, and it can be onboarded.
    riskLevel: machine ? (RISK[machine.riskScore ?? ''] ?? 'No data') : 'No data',
    exposureScore: machine ? (EXPOSURE[machine.exposureLevel ?? ''] ?? 0) : 0,
    healthState: machine ? (HEALTH[machine.healthStatus ?? ''] ?? 'Misconfigured') : 'Inactive',
    onboardingStatus: machine
      ? (ONBOARDING[machine.onboardingStatus ?? ''] ?? 'Pending')
      : 'Can be Onboarded',
    lastSeenAt: later(device.lastSyncDateTime, machine?.lastSeen),
    openRecommendations: defender.openRecommendations,
    ...isolationOf(defender.isolation),
  };
}

/**
 * A machine's isolation from its latest succeeded Isolate or Unisolate action, whoever asked for it (our
 * device actions, the Defender portal, an automated investigation): the machine entity itself does not carry
 * its isolation (learn.microsoft.com "Machine resource type"), its actions do ("MachineAction resource type":
 * type, scope Full | Selective, status). No such action: not isolated, and nothing to read back.
 */
function isolationOf(
  action: DefenderMachineAction | null,
): Pick<CloudDeviceRecord, 'isolated' | 'isolationActionId' | 'isolationType'> {
  if (!action) return { isolated: false, isolationActionId: null, isolationType: null };
  const isolated = action.type === 'Isolate';
  return {
    isolated,
    isolationActionId: action.id,
    // Defender's isolate defaults to Full when no IsolationType is given.
    isolationType: isolated ? (action.scope === 'Selective' ? 'Selective' : 'Full') : null,
  };
}

/**
 * Machines by Entra ID device id, and each machine's latest succeeded Isolate or Unisolate action (what says
 * whether it is isolated now: the machine entity itself does not carry its isolation).
 */
async function defenderView(defender: DefenderTenantClient): Promise<{
  machines: Map<string, DefenderMachine>;
  machineCount: number;
  isolations: Map<string, DefenderMachineAction>;
  recommendations: Map<string, string[]>;
}> {
  const machines = new Map<string, DefenderMachine>();
  let machineCount = 0;
  for await (const page of defender.pages<DefenderMachine>('/api/machines'))
    for (const machine of page) {
      machineCount++;
      if (machine.aadDeviceId) machines.set(machine.aadDeviceId.toLowerCase(), machine);
    }
  const latest = new Map<string, DefenderMachineAction>();
  for await (const page of defender.pages<DefenderMachineAction>('/api/machineactions', {
    $filter: "type eq 'Isolate' or type eq 'Unisolate'",
  }))
    for (const action of page) {
      if (action.status !== 'Succeeded') continue;
      const known = latest.get(action.machineId);
      if (!known || Date.parse(action.creationDateTimeUtc) > Date.parse(known.creationDateTimeUtc))
        latest.set(action.machineId, action);
    }
  return {
    machines,
    machineCount,
    isolations: latest,
    recommendations: await openRecommendationsByMachine(defender),
  };
}

const NO_DEFENDER: Awaited<ReturnType<typeof defenderView>> = {
  machines: new Map(),
  machineCount: 0,
  isolations: new Map(),
  recommendations: new Map(),
};

/**
 * The tenant's devices, one page per Intune page (Defender's view is read once, before the first). What our
 * device record cannot hold truthfully is left out and counted (`notListed`, once every page is read):
 * Intune devices of other systems (our OS platforms are the SPEC's five), and Defender machines no Intune
 * device joins (servers, unmanaged computers: no enrolment, ownership or compliance to show, and our devices
 * feed the enrollment and compliance dashboards). docs/microsoft365.md "Devices".
 */
export function graphDevices(graph: GraphTenantClient): CloudDevicePages {
  const notListed: CloudDevicesNotListed = { defenderOnly: 0, otherSystems: 0 };
  return {
    get notListed() {
      return notListed;
    },
    async *[Symbol.asyncIterator]() {
      const { machines, machineCount, isolations, recommendations } = await defenderView(
        defenderClientOf(graph),
      ).catch((error: unknown) => {
        // A tenant without Defender for Endpoint: its devices are Intune's alone, with no Defender data.
        if (isDefenderMissing(error)) return NO_DEFENDER;
        throw error;
      });
      const joined = new Set<string>();
      notListed.otherSystems = 0;
      for await (const page of graph.pages<ManagedDevice>(MANAGED_DEVICES, {
        query: { $select: MANAGED_DEVICE_SELECT },
      })) {
        const records: CloudDeviceRecord[] = [];
        for (const device of page.value) {
          const machine = machines.get(deviceKeyOf(device)) ?? null;
          if (machine) joined.add(machine.id);
          const record = deviceRecordOf(device, machine, {
            isolation: (machine && isolations.get(machine.id)) ?? null,
            openRecommendations: (machine && recommendations.get(machine.id)) ?? [],
          });
          if (record) records.push(record);
          else notListed.otherSystems++;
        }
        yield records;
      }
      notListed.defenderOnly = machineCount - joined.size;
    },
  };
}
