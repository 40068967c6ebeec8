import type { CloudUserRecord } from '../provider.js';
import type {
  CloudAlertRecord,
  CloudAlertSeverity,
  CloudAlertStatus,
  CloudComplianceState,
  CloudDeviceRecord,
  CloudDlpActivity,
  CloudDlpAlertRecord,
  CloudDlpPolicyRecord,
  CloudOnboardingStatus,
  CloudOsPlatform,
} from '../security.provider.js';
import { seededRandom } from './simulated-cloud.generator.js';

/**
 * The security estate of a simulated tenant: devices of the five platforms, alerts (some about those
 * devices, some about users), endpoint DLP policies and their hits. Drawn with a PRNG stream of its own
 * (seed ^ SECURITY_STREAM), after the directory, so no other generated value of a tenant moves.
 */
const SECURITY_STREAM = 0x5ec0de;
const DEVICE_HYGIENE_STREAM = 0xd3c1ce;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const between = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

function uuidOf(random: Random): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

interface PlatformProfile {
  platform: CloudOsPlatform;
  weight: number;
  versions: string[];
  makers: Array<[manufacturer: string, model: string]>;
  name: (random: Random, user: string) => string;
}

const PLATFORMS: PlatformProfile[] = [
  {
    platform: 'Windows',
    weight: 50,
    versions: ['10.0.19045', '10.0.22631', '10.0.26100'],
    makers: [
      ['Dell Inc.', 'Latitude 7440'],
      ['LENOVO', 'ThinkPad T14 Gen 4'],
      ['HP', 'EliteBook 840 G10'],
      ['Microsoft Corporation', 'Surface Laptop 5'],
    ],
    name: (random) => `DESKTOP-${uuidOf(random).slice(0, 7).toUpperCase()}`,
  },
  {
    platform: 'macOS',
    weight: 15,
    versions: ['14.7.1', '15.1', '15.1.1'],
    makers: [
      ['Apple', 'MacBook Pro 14"'],
      ['Apple', 'MacBook Air 13"'],
    ],
    name: (_random, user) => `${user}-MacBook`,
  },
  {
    platform: 'Linux',
    weight: 5,
    versions: ['Ubuntu 22.04', 'Ubuntu 24.04', 'RHEL 9.4'],
    makers: [
      ['Dell Inc.', 'PowerEdge R650'],
      ['LENOVO', 'ThinkPad X1 Carbon'],
    ],
    name: (random) => `srv-linux-${between(random, 1, 40).toString().padStart(2, '0')}`,
  },
  {
    platform: 'iOS',
    weight: 18,
    versions: ['17.7', '18.1', '18.1.1'],
    makers: [
      ['Apple', 'iPhone 15'],
      ['Apple', 'iPhone 14 Pro'],
      ['Apple', 'iPad Air'],
    ],
    name: (_random, user) => `${user}-iPhone`,
  },
  {
    platform: 'Android',
    weight: 12,
    versions: ['13', '14', '15'],
    makers: [
      ['samsung', 'Galaxy S24'],
      ['Google', 'Pixel 8'],
      ['motorola', 'moto g84'],
    ],
    name: (_random, user) => `${user}-Android`,
  },
];

function weighted<T extends { weight: number }>(random: Random, items: readonly T[]): T {
  let draw = random() * items.reduce((sum, item) => sum + item.weight, 0);
  for (const item of items) {
    draw -= item.weight;
    if (draw < 0) return item;
  }
  return items[items.length - 1];
}

/** Recommendation codes a device can have open, by platform (titles in src/devices/device-recommendations.ts). */
const RECOMMENDATIONS_BY_PLATFORM: Record<CloudOsPlatform, string[]> = {
  Windows: ['update-os', 'enable-bitlocker', 'turn-on-tamper-protection', 'disable-smbv1', 'update-chrome'],
  macOS: ['update-os', 'enable-filevault', 'update-chrome'],
  Linux: ['update-os', 'update-openssl'],
  iOS: ['update-os', 'require-passcode'],
  Android: ['update-os', 'require-passcode', 'block-sideloading'],
};

interface GeneratedSecurity {
  devices: CloudDeviceRecord[];
  alerts: CloudAlertRecord[];
  dlpPolicies: CloudDlpPolicyRecord[];
  dlpAlerts: CloudDlpAlertRecord[];
}

function generateDevice(
  random: Random,
  user: CloudUserRecord,
  reference: number,
  nonCompliantWeight: number,
): CloudDeviceRecord {
  const profile = weighted(random, PLATFORMS);
  const [manufacturer, model] = pick(random, profile.makers);
  const onboarding: CloudOnboardingStatus = weighted(random, [
    { value: 'Onboarded' as const, weight: 80 },
    { value: 'Pending' as const, weight: 6 },
    { value: 'Can be Onboarded' as const, weight: 6 },
    { value: 'Unsupported' as const, weight: profile.platform === 'Linux' ? 20 : 3 },
    { value: 'Failed' as const, weight: 3 },
  ]).value;
  const onboarded = onboarding === 'Onboarded';
  const health = weighted(random, [
    { value: 'Active' as const, weight: 80 },
    { value: 'Inactive' as const, weight: 12 },
    { value: 'Misconfigured' as const, weight: 8 },
  ]).value;
  const exposureScore = onboarded ? between(random, 5, 95) : 0;
  const riskLevel = !onboarded
    ? 'No data'
    : exposureScore >= 70
      ? 'High'
      : exposureScore >= 40
        ? 'Medium'
        : 'Low';
  const compliance: CloudComplianceState = weighted(random, [
    { value: 'Compliant' as const, weight: 82 - nonCompliantWeight },
    { value: 'Non-Compliant' as const, weight: nonCompliantWeight },
    { value: 'In Grace Period' as const, weight: 8 },
    { value: 'Not Evaluated' as const, weight: 10 },
  ]).value;
  const openRecommendations = onboarded
    ? RECOMMENDATIONS_BY_PLATFORM[profile.platform].filter(() => random() < 0.35)
    : [];
  const handle = user.userPrincipalName
    .split('@')[0]
    .replace(/[^a-z0-9]/gi, '')
    .slice(0, 12);
  const lastSeenHoursAgo = health === 'Inactive' ? between(random, 24 * 8, 24 * 40) : between(random, 0, 20);
  return {
    externalId: uuidOf(random),
    deviceName: profile.name(random, handle),
    osPlatform: profile.platform,
    osVersion: pick(random, profile.versions),
    ownership: profile.platform === 'Linux' || random() < 0.8 ? 'Corporate' : 'Personal',
    manufacturer,
    model,
    enrolledAt: new Date(reference - between(random, 20, 700) * DAY_MS).toISOString(),
    complianceState: compliance,
    complianceGraceExpiresAt:
      compliance === 'In Grace Period'
        ? new Date(reference + between(random, 1, 7) * DAY_MS).toISOString()
        : null,
    userExternalId: user.externalId,
    riskLevel,
    exposureScore,
    healthState: health,
    onboardingStatus: onboarding,
    lastSeenAt: new Date(reference - lastSeenHoursAgo * HOUR_MS).toISOString(),
    openRecommendations,
    isolated: false,
  };
}

interface AlertTemplate {
  title: string;
  category: string;
  source: string;
  severities: CloudAlertSeverity[];
  /** About a device (Defender for Endpoint) or about a user. */
  about: 'device' | 'user';
}

const ALERT_TEMPLATES: AlertTemplate[] = [
  {
    title: 'Malware detected: Trojan:Win32/Wacatac',
    category: 'Malware',
    source: 'Defender for Endpoint',
    severities: ['High', 'Medium'],
    about: 'device',
  },
  {
    title: 'Ransomware behavior detected',
    category: 'Ransomware',
    source: 'Defender for Endpoint',
    severities: ['High'],
    about: 'device',
  },
  {
    title: 'Suspicious PowerShell command line',
    category: 'Execution',
    source: 'Defender for Endpoint',
    severities: ['Medium', 'Low'],
    about: 'device',
  },
  {
    title: 'Potentially unwanted application blocked',
    category: 'Malware',
    source: 'Defender for Endpoint',
    severities: ['Low', 'Informational'],
    about: 'device',
  },
  {
    title: 'Phishing email delivered to mailbox',
    category: 'Phishing',
    source: 'Office 365',
    severities: ['Medium', 'High'],
    about: 'user',
  },
  {
    title: 'User-reported phishing message',
    category: 'Phishing',
    source: 'Office 365',
    severities: ['Low', 'Informational'],
    about: 'user',
  },
  {
    title: 'Suspicious inbox forwarding rule',
    category: 'Data exfiltration',
    source: 'Office 365',
    severities: ['Medium'],
    about: 'user',
  },
  {
    title: 'Unusual volume of file downloads',
    category: 'Data exfiltration',
    source: 'Cloud App Security',
    severities: ['Medium', 'High'],
    about: 'user',
  },
  {
    title: 'Impossible travel activity',
    category: 'Suspicious sign-in',
    source: 'Identity Protection',
    severities: ['Medium', 'High'],
    about: 'user',
  },
  {
    title: 'Sign-in from anonymous IP address',
    category: 'Suspicious sign-in',
    source: 'Identity Protection',
    severities: ['Medium', 'Low'],
    about: 'user',
  },
  {
    title: 'Password spray attack',
    category: 'Credential access',
    source: 'Identity Protection',
    severities: ['High'],
    about: 'user',
  },
];

/**
 * An alert's status by its age. A tenant someone looks after triages within days: a recent alert is often still
 * open, an old one rarely. (One mix for all ages left two of three alerts of the last 30 days open, so every
 * demo tenant had several open High alerts and read critical once its figures were counted: issue #33 item 7.)
 */
const RECENT_ALERT_HOURS = 72;
const RECENT_ALERT_STATUSES: Array<{ value: CloudAlertStatus; weight: number }> = [
  { value: 'New', weight: 35 },
  { value: 'In Progress', weight: 20 },
  { value: 'Resolved', weight: 30 },
  { value: 'Dismissed', weight: 15 },
];
const OLDER_ALERT_STATUSES: Array<{ value: CloudAlertStatus; weight: number }> = [
  { value: 'New', weight: 1 },
  { value: 'In Progress', weight: 3 },
  { value: 'Resolved', weight: 72 },
  { value: 'Dismissed', weight: 24 },
];

/** One alert; `ageHours` back from the reference date. */
export function alertOf(
  random: Random,
  template: AlertTemplate,
  subject: { user: CloudUserRecord; device: CloudDeviceRecord | null },
  createdAt: Date,
  status: CloudAlertStatus,
): CloudAlertRecord {
  const severity = pick(random, template.severities);
  const onDevice = template.about === 'device' && subject.device !== null;
  return {
    externalId: uuidOf(random),
    title: template.title,
    description: `${template.title} (${template.source}) on ${onDevice ? subject.device!.deviceName : subject.user.userPrincipalName}.`,
    severity,
    status,
    category: template.category,
    source: template.source,
    affectedEntity: onDevice ? subject.device!.deviceName : subject.user.userPrincipalName,
    userExternalId: subject.user.externalId,
    deviceExternalId: onDevice ? subject.device!.externalId : null,
    createdAt: createdAt.toISOString(),
  };
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

export { ALERT_TEMPLATES };
