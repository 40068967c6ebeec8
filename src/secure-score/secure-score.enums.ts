/**
 * Where a tenant's secure score comes from, and so which points scale it is on: Microsoft's own Secure Score
 * (a tenant of the live environment on Microsoft 365), or ours computed from the recommendation states (the
 * sandbox, and any tenant whose cloud keeps no score). Points of the two scales do not add up; percentages
 * compare.
 */
export enum SecureScoreSource {
  RECOMMENDATIONS = 'recommendations',
  MICROSOFT365 = 'microsoft365',
}
