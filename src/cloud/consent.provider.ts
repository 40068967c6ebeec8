/**
 * Customer consent (DECISIONS: "A customer tenant joins an organization only with that customer's consent").
 * In the real cloud a customer's administrator accepts a partner's delegated admin relationship; until then
 * the partner cannot read or change anything of that tenant. The partner side can only look a relationship
 * up — granting and revoking are the customer's acts, done in the customer's own admin center, so they are
 * not part of this interface (the simulated cloud offers them to the operator's CLI and to tests).
 */

/** An active delegated admin relationship: the customer tenant lets one partner organization administer it. */
export interface CloudDelegatedAccessRecord {
  tenantExternalId: string;
  /** The partner the customer granted (our organization id plays the partner's id in the cloud). */
  partnerOrganizationId: string;
  grantedAt: string;
}

export interface CloudConsentProvider {
  /**
   * The tenant's active relationship with this partner; null when none was granted, it was revoked, or the
   * tenant does not exist — a partner cannot tell these apart, as in the real cloud.
   */
  getDelegatedAccess(
    tenantExternalId: string,
    partnerOrganizationId: string,
  ): Promise<CloudDelegatedAccessRecord | null>;
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

/**
 * The customers that grant a partner access, in a stable order, a page at a time: what the partner may
 * onboard. Microsoft 365 answers it from `GET /tenantRelationships/delegatedAdminCustomers` (paged by
 * `@odata.nextLink`). One request object, not a tenant id first: it is about the partner, not one tenant.
 */
export interface CloudDelegatedCustomerLister {
  listDelegatedCustomers(request: {
    partnerOrganizationId: string;
    limit: number;
    cursor?: string | null;
  }): Promise<CloudDelegatedCustomerPage>;
}
