import {
  RecommendationCategory as Category,
  RecommendationSeverity as Severity,
} from './recommendation.enums.js';

/**
 * The security recommendations (SPEC 2.6): one per security control the cloud reports for a tenant
 * (the control ids of the cloud provider). Text and points are ours; which tenants are affected and
 * each tenant's status come from the cloud (sync) and from what admins do here.
 */
export interface RecommendationDefinition {
  id: string;
  title: string;
  severity: Severity;
  category: Category;
  /** Secure-score points a tenant gains by meeting the control. */
  scoreImpact: number;
  implementationGuide: string;
  riskAssessment: string;
}

export const RECOMMENDATION_CATALOG: readonly RecommendationDefinition[] = [
  {
    id: 'mfa-admin-roles',
    title: 'Require multifactor authentication for administrative roles',
    severity: Severity.CRITICAL,
    category: Category.IDENTITY_AND_ACCESS,
    scoreImpact: 10,
    implementationGuide:
      'Create a conditional access policy targeting every directory role with admin rights; grant access only with MFA; exclude one break-glass account.',
    riskAssessment: 'A phished administrator password gives full control of the tenant.',
  },
  {
    id: 'mfa-all-users',
    title: 'Require multifactor authentication for all users',
    severity: Severity.HIGH,
    category: Category.IDENTITY_AND_ACCESS,
    scoreImpact: 9,
    implementationGuide:
      'Enable security defaults or a conditional access policy requiring MFA for all users.',
    riskAssessment: 'Password spray and credential stuffing succeed against single-factor accounts.',
  },
  {
    id: 'block-legacy-authentication',
    title: 'Block legacy authentication',
    severity: Severity.HIGH,
    category: Category.IDENTITY_AND_ACCESS,
    scoreImpact: 8,
    implementationGuide:
      'Create a conditional access policy blocking "Other clients" and Exchange ActiveSync basic auth.',
    riskAssessment: 'Legacy protocols bypass MFA entirely.',
  },
  {
    id: 'dlp-policies',
    title: 'Turn on data loss prevention policies',
    severity: Severity.MEDIUM,
    category: Category.DATA_PROTECTION,
    scoreImpact: 5,
    implementationGuide:
      'Deploy the default DLP templates for financial and personal data in test mode, then enforce.',
    riskAssessment: 'Sensitive data can leave the tenant by mail or sharing unnoticed.',
  },
  {
    id: 'sensitivity-labels',
    title: 'Publish sensitivity labels',
    severity: Severity.MEDIUM,
    category: Category.DATA_PROTECTION,
    scoreImpact: 4,
    implementationGuide:
      'Agree a label taxonomy with the customer, create the labels and publish them to all users.',
    riskAssessment: 'Without labels, protection cannot follow documents outside the tenant.',
  },
  {
    id: 'safe-links',
    title: 'Turn on Safe Links for email and Office apps',
    severity: Severity.HIGH,
    category: Category.EMAIL_SECURITY,
    scoreImpact: 6,
    implementationGuide:
      'Create a Safe Links policy for all recipients with URL rewriting and click tracking.',
    riskAssessment: 'Malicious links in mail are the most common initial access.',
  },
  {
    id: 'dmarc-records',
    title: 'Publish DMARC records for all accepted domains',
    severity: Severity.MEDIUM,
    category: Category.EMAIL_SECURITY,
    scoreImpact: 4,
    implementationGuide:
      'Publish SPF and DKIM, then a DMARC TXT record (p=quarantine) at each domain registrar.',
    riskAssessment: "Attackers can spoof the customer's domains to its partners.",
  },
  {
    id: 'require-compliant-devices',
    title: 'Require compliant devices for access to company data',
    severity: Severity.HIGH,
    category: Category.DEVICE_SECURITY,
    scoreImpact: 7,
    implementationGuide:
      'Create compliance policies per platform, then a conditional access policy requiring compliance.',
    riskAssessment: 'Unmanaged or compromised devices can read company data.',
  },
  {
    id: 'tamper-protection',
    title: 'Turn on tamper protection',
    severity: Severity.MEDIUM,
    category: Category.DEVICE_SECURITY,
    scoreImpact: 5,
    implementationGuide: 'Enable tamper protection tenant-wide in the endpoint security settings.',
    riskAssessment: 'Malware can switch off antivirus on the device.',
  },
  {
    id: 'attack-surface-reduction',
    title: 'Turn on attack surface reduction rules',
    severity: Severity.HIGH,
    category: Category.THREAT_PROTECTION,
    scoreImpact: 6,
    implementationGuide:
      'Deploy the standard ASR rules in audit mode for two weeks, review the hits, then block.',
    riskAssessment: 'Office macros and script-based attacks run unchecked.',
  },
  {
    id: 'unified-audit-log',
    title: 'Turn on unified audit logging',
    severity: Severity.HIGH,
    category: Category.AUDIT_AND_COMPLIANCE,
    scoreImpact: 5,
    implementationGuide: 'Switch on audit log search in the compliance portal.',
    riskAssessment: 'Without audit logs an incident cannot be investigated.',
  },
  {
    id: 'mailbox-auditing',
    title: 'Keep mailbox auditing on for all users',
    severity: Severity.LOW,
    category: Category.AUDIT_AND_COMPLIANCE,
    scoreImpact: 2,
    implementationGuide: 'Make sure mailbox auditing by default is on and no mailbox bypasses it.',
    riskAssessment: 'Mailbox access by a delegate or attacker leaves no trace.',
  },
];

const BY_ID = new Map(RECOMMENDATION_CATALOG.map((definition) => [definition.id, definition]));

export function recommendationDefinition(id: string): RecommendationDefinition | undefined {
  return BY_ID.get(id);
}
