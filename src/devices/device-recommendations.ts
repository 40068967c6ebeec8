/**
 * The device security recommendations the cloud can report on a device (SPEC 2.6 "Security recommendation
 * (device area)": title, impact High/Medium, affected device count). A device carries the codes open on it
 * (`devices.open_recommendations`); the list reads the devices per code from `device_recommendation_counts`.
 */
export type RecommendationImpact = 'High' | 'Medium';

export const DEVICE_RECOMMENDATIONS: Record<string, { title: string; impact: RecommendationImpact }> = {
  'update-os': { title: 'Update the operating system to the latest version', impact: 'High' },
  'enable-bitlocker': { title: 'Encrypt all BitLocker-supported drives', impact: 'High' },
  'enable-filevault': { title: 'Turn on FileVault disk encryption', impact: 'High' },
  'turn-on-tamper-protection': { title: 'Turn on Tamper Protection', impact: 'High' },
  'disable-smbv1': { title: 'Disable SMBv1 client and server', impact: 'Medium' },
  'update-chrome': { title: 'Update Google Chrome', impact: 'Medium' },
  'update-openssl': { title: 'Update OpenSSL', impact: 'High' },
  'require-passcode': { title: 'Require a device passcode', impact: 'Medium' },
  'block-sideloading': { title: 'Block installation of apps from unknown sources', impact: 'Medium' },
};
