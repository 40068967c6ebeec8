/**
 * The security controls every simulated tenant has, and whether the cloud can switch each on by itself
 * (the others need work outside the cloud, such as DNS records or labelling decisions). Plain data, apart from
 * simulated-posture.ts: a test reads the list without loading the simulated cloud's entity.
 */
export const SIMULATED_SECURITY_CONTROLS: ReadonlyArray<{ controlId: string; applySupported: boolean }> = [
  { controlId: 'mfa-admin-roles', applySupported: true },
  { controlId: 'mfa-all-users', applySupported: true },
  { controlId: 'block-legacy-authentication', applySupported: true },
  { controlId: 'dlp-policies', applySupported: true },
  { controlId: 'sensitivity-labels', applySupported: false },
  { controlId: 'safe-links', applySupported: true },
  { controlId: 'dmarc-records', applySupported: false },
  { controlId: 'require-compliant-devices', applySupported: true },
  { controlId: 'tamper-protection', applySupported: true },
  { controlId: 'attack-surface-reduction', applySupported: true },
  { controlId: 'unified-audit-log', applySupported: true },
  { controlId: 'mailbox-auditing', applySupported: true },
];
