import type { CloudUserRecord } from '../provider.js';
import type {
  CloudAlertRecord,
  CloudAlertSeverity,
  CloudAlertStatus,
  CloudDeviceRecord,
} from '../security.provider.js';
import { pick, uuidOf, type Random } from './seeded-random.js';

/** The alerts of a simulated tenant's security estate (security.generator.ts): what they are about, and one alert. */
export const HOUR_MS = 3_600_000;

export interface AlertTemplate {
  title: string;
  category: string;
  source: string;
  severities: CloudAlertSeverity[];
  /** About a device (Defender for Endpoint) or about a user. */
  about: 'device' | 'user';
}

export const ALERT_TEMPLATES: AlertTemplate[] = [
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
export const RECENT_ALERT_HOURS = 72;
export const RECENT_ALERT_STATUSES: Array<{ value: CloudAlertStatus; weight: number }> = [
  { value: 'New', weight: 35 },
  { value: 'In Progress', weight: 20 },
  { value: 'Resolved', weight: 30 },
  { value: 'Dismissed', weight: 15 },
];
export const OLDER_ALERT_STATUSES: Array<{ value: CloudAlertStatus; weight: number }> = [
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
