import type { CloudUserRecord } from '../provider.js';
import type {
  CloudComplianceState,
  CloudDeviceRecord,
  CloudOnboardingStatus,
  CloudOsPlatform,
} from '../security.provider.js';
import { between, pick, uuidOf, weighted, type Random } from './seeded-random.js';

/** The devices of a simulated tenant's security estate (security.generator.ts): platforms and one device. */
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

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

/** Recommendation codes a device can have open, by platform (titles in src/devices/device-recommendations.ts). */
const RECOMMENDATIONS_BY_PLATFORM: Record<CloudOsPlatform, string[]> = {
  Windows: ['update-os', 'enable-bitlocker', 'turn-on-tamper-protection', 'disable-smbv1', 'update-chrome'],
  macOS: ['update-os', 'enable-filevault', 'update-chrome'],
  Linux: ['update-os', 'update-openssl'],
  iOS: ['update-os', 'require-passcode'],
  Android: ['update-os', 'require-passcode', 'block-sideloading'],
};

export function generateDevice(
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
