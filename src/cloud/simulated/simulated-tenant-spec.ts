import type {
  CloudGroupRecord,
  CloudLicenseAssignmentRecord,
  CloudSignInRecord,
  CloudSkuRecord,
  CloudTenantRecord,
  CloudUserRecord,
} from '../provider.js';
import type { SkuPartNumber } from './simulated-cloud.catalog.js';

/** What a simulated tenant looks like; everything else follows from the seed. */
export interface SimulatedTenantSpec {
  /** The tenant's id in the simulated cloud; derived from the seed when absent. */
  externalId?: string;
  displayName: string;
  /** Verified domains, the default domain (the one users sign in with) first; guests live on the `.onmicrosoft.com` one. */
  domains: string[];
  seed: number;
  /** People with a member account (default 40); guests, service accounts and deleted users come on top. */
  employees?: number;
  /** ISO 3166 alpha-2 of the head office (default US); picks the locale of names and phone numbers. */
  country?: string;
  /** Departments besides the executive team (default a generic office mix). */
  departments?: string[];
  /** Directory synced from an on-premises Active Directory: most people are `onPremisesSynced`. */
  hybrid?: boolean;
  /** The productivity suite office workers hold (default chosen by size). */
  suite?: SkuPartNumber;
}

export interface GeneratedDirectory {
  tenant: CloudTenantRecord;
  seed: number;
  users: CloudUserRecord[];
  skus: CloudSkuRecord[];
  groups: CloudGroupRecord[];
  assignments: CloudLicenseAssignmentRecord[];
  signIns: CloudSignInRecord[];
}
