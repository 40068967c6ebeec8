import type { CloudUserRecord } from '../provider.js';
import type {
  CloudAlertRecord,
  CloudDeviceRecord,
  CloudDlpActivity,
  CloudDlpAlertRecord,
  CloudDlpPolicyRecord,
} from '../security.provider.js';
import {
  ALERT_TEMPLATES,
  alertOf,
  OLDER_ALERT_STATUSES,
  RECENT_ALERT_HOURS,
  RECENT_ALERT_STATUSES,
} from './security-alerts.js';
import { generateDevice } from './security-devices.js';
import { between, pick, seededRandom, uuidOf, weighted } from './seeded-random.js';

/**
 * The security estate of a simulated tenant: devices of the five platforms, alerts (some about those
 * devices, some about users), endpoint DLP policies and their hits. Drawn with a PRNG stream of its own
 * (seed ^ SECURITY_STREAM), after the directory, so no other generated value of a tenant moves.
 */
const SECURITY_STREAM = 0x5ec0de;
const DEVICE_HYGIENE_STREAM = 0xd3c1ce;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

interface GeneratedSecurity {
  devices: CloudDeviceRecord[];
  alerts: CloudAlertRecord[];
  dlpPolicies: CloudDlpPolicyRecord[];
  dlpAlerts: CloudDlpAlertRecord[];
}

const DLP_POLICIES: Array<Omit<CloudDlpPolicyRecord, 'externalId' | 'createdAt'>> = [
  {
    name: 'Financial data - block USB',
    action: 'Block',
    deviceGroups: ['Finance laptops'],
    monitoredActivities: ['Copy to removable media', 'Copy to network share', 'Print'],
    enabled: true,
  },
  {
    name: 'PII - warn on cloud upload',
    action: 'Block with override',
    deviceGroups: ['All devices'],
    monitoredActivities: ['Upload to cloud service', 'Access by unallowed apps', 'Clipboard copy/paste'],
    enabled: true,
  },
  {
    name: 'Source code - audit',
    action: 'Audit only',
    deviceGroups: ['Engineering workstations', 'Build servers'],
    monitoredActivities: [
      'Copy to removable media',
      'Copy to network share',
      'Upload to cloud service',
      'Access by unallowed apps',
      'Print',
      'Clipboard copy/paste',
    ],
    enabled: true,
  },
];

const FILES = [
  'Q3-forecast.xlsx',
  'payroll-2026.csv',
  'customer-list.xlsx',
  'contract-draft.docx',
  'passport-scan.pdf',
  'api-keys.txt',
];

/**
 * A tenant's security estate: one or two devices for most active members, alerts of the last 30 days
 * (more about risky devices), three DLP policies and their recent hits. Deterministic for a seed, users and
 * reference date.
 */
export function generateSecurity(
  users: CloudUserRecord[],
  seed: number,
  referenceDate: Date,
): GeneratedSecurity {
  const random = seededRandom(seed ^ SECURITY_STREAM);
  const reference = referenceDate.getTime();
  // How well the tenant's devices are kept: 2 to 13 in 100 Non-Compliant, from a stream of its own (so nothing
  // else generated moves). One share for every tenant made each of them warn on devices (docs/tenant-health.md).
  const nonCompliantWeight = 2 + Math.floor(seededRandom(seed ^ DEVICE_HYGIENE_STREAM)() * 12);
  const people = users
    .filter((u) => u.userType === 'Member' && !u.isServiceAccount && !u.deletedAt)
    .sort((a, b) => a.externalId.localeCompare(b.externalId));
  const devices: CloudDeviceRecord[] = [];
  for (const person of people) {
    const count = random() < 0.15 ? 0 : random() < 0.6 ? 1 : 2;
    for (let i = 0; i < count; i++)
      devices.push(generateDevice(random, person, reference, nonCompliantWeight));
  }
  const alerts: CloudAlertRecord[] = [];
  const alertCount = Math.min(people.length, between(random, 6, 12) + Math.floor(devices.length / 25));
  for (let i = 0; i < alertCount && people.length > 0; i++) {
    const template = pick(random, ALERT_TEMPLATES);
    const device = template.about === 'device' && devices.length > 0 ? pick(random, devices) : null;
    const user = device
      ? (people.find((p) => p.externalId === device.userExternalId) ?? people[0])
      : pick(random, people);
    const createdAt = new Date(reference - between(random, 10, 30 * 24 * 60) * 60_000);
    const recent = reference - createdAt.getTime() < RECENT_ALERT_HOURS * HOUR_MS;
    const status = weighted(random, recent ? RECENT_ALERT_STATUSES : OLDER_ALERT_STATUSES).value;
    alerts.push(alertOf(random, template, { user, device }, createdAt, status));
  }
  const dlpPolicies = DLP_POLICIES.map((policy) => ({
    ...policy,
    externalId: uuidOf(random),
    createdAt: new Date(reference - between(random, 60, 400) * DAY_MS).toISOString(),
  }));
  const dlpAlerts: CloudDlpAlertRecord[] = [];
  const hits = devices.length === 0 ? 0 : between(random, 4, 10);
  for (let i = 0; i < hits; i++) {
    const policy = pick(random, dlpPolicies);
    const device = pick(random, devices);
    const user = people.find((p) => p.externalId === device.userExternalId)!;
    const activity: CloudDlpActivity = pick(random, policy.monitoredActivities);
    dlpAlerts.push({
      externalId: uuidOf(random),
      policyExternalId: policy.externalId,
      activity,
      deviceExternalId: device.externalId,
      userExternalId: user.externalId,
      userPrincipalName: user.userPrincipalName,
      fileName: pick(random, FILES),
      actionTaken:
        policy.action === 'Audit only'
          ? 'Audited'
          : policy.action === 'Block'
            ? 'Blocked'
            : random() < 0.5
              ? 'Overridden'
              : 'Blocked',
      occurredAt: new Date(reference - between(random, 5, 14 * 24 * 60) * 60_000).toISOString(),
    });
  }
  return { devices, alerts, dlpPolicies, dlpAlerts };
}
