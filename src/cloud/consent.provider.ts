/**
 * Customer consent (DECISIONS: "A customer tenant joins an organization only with that customer's consent").
 * In the real cloud a customer's administrator accepts a partner's delegated admin relationship (or consents
 * to the partner's app); until then the partner cannot read or change anything of that tenant. The partner
 * side can only look a relationship up — granting and revoking are the customer's acts, done in the
 * customer's own admin center, so they are not part of the provider interface (the simulated cloud offers
 * them to the operator's CLI and to tests).
 */

/** An active delegated admin relationship: the customer tenant lets one partner organization administer it. */
export interface CloudDelegatedAccessRecord {
  tenantExternalId: string;
  /** The partner the customer granted (our organization id plays the partner's id in the cloud). */
  partnerOrganizationId: string;
  grantedAt: string;
  /**
   * What the customer's consent grants the partner's app, read at this check: absent where the cloud has
   * nothing to grant per permission (the simulated cloud), or when it could not be read this time.
   */
  permissions?: CloudConsentPermissions;
}

/**
 * The application permissions a customer tenant's consent grants, and the areas that the ones it lacks
 * disable (Microsoft 365: the `roles` claim of the app's tokens for that tenant, docs/microsoft365.md).
 */
export interface CloudConsentPermissions {
  /** Sorted. */
  granted: string[];
  /** The permissions the app asks for that the consent lacks, sorted. */
  missing: string[];
  /** Each area a missing permission disables in this tenant, with the permissions it lacks. */
  disabledCapabilities: Array<{ capability: string; missingPermissions: string[] }>;
}

/** A customer tenant that granted the partner delegated access (Graph: a `delegatedAdminCustomer`). */
export interface CloudDelegatedCustomerRecord {
  tenantExternalId: string;
  displayName: string;
}

/** One page of a partner's delegated customers; `nextCursor` is the cloud's own (Graph: the skip token). */
export interface CloudDelegatedCustomerPage {
  items: CloudDelegatedCustomerRecord[];
  nextCursor: string | null;
}
