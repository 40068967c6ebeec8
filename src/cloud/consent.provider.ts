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
