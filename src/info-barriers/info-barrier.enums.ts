/** SPEC 2.6 "Segment": the one user attribute that defines a segment. */
export enum SegmentAttribute {
  DEPARTMENT = 'department',
  JOB_TITLE = 'jobTitle',
  MEMBER_OF = 'memberOf',
  OFFICE = 'office',
  COMPANY = 'company',
  EXTENSION_ATTRIBUTE_1 = 'extensionAttribute1',
  EXTENSION_ATTRIBUTE_2 = 'extensionAttribute2',
  EXTENSION_ATTRIBUTE_3 = 'extensionAttribute3',
  EXTENSION_ATTRIBUTE_4 = 'extensionAttribute4',
  EXTENSION_ATTRIBUTE_5 = 'extensionAttribute5',
  EXTENSION_ATTRIBUTE_6 = 'extensionAttribute6',
  EXTENSION_ATTRIBUTE_7 = 'extensionAttribute7',
  EXTENSION_ATTRIBUTE_8 = 'extensionAttribute8',
  EXTENSION_ATTRIBUTE_9 = 'extensionAttribute9',
  EXTENSION_ATTRIBUTE_10 = 'extensionAttribute10',
  EXTENSION_ATTRIBUTE_11 = 'extensionAttribute11',
  EXTENSION_ATTRIBUTE_12 = 'extensionAttribute12',
  EXTENSION_ATTRIBUTE_13 = 'extensionAttribute13',
  EXTENSION_ATTRIBUTE_14 = 'extensionAttribute14',
  EXTENSION_ATTRIBUTE_15 = 'extensionAttribute15',
}

/** SPEC 2.6 "Barrier policy", 4.4: Block restricts both ways; Allow is an exception to a block. */
export enum BarrierPolicyType {
  BLOCK = 'Block',
  ALLOW = 'Allow',
}

/**
 * An application of the policy set: Pending (queued) → Applying (pushed to the cloud, which takes up to
 * 24 hours, SPEC 8.3) → Applied once 24 hours have passed since it started; Failed when the push gave up.
 */
export enum BarrierApplicationStatus {
  PENDING = 'Pending',
  APPLYING = 'Applying',
  APPLIED = 'Applied',
  FAILED = 'Failed',
}
/** SPEC 8.3 "Information barrier policy application: up to 24 hours": Applied this long after it started. */
export const BARRIER_APPLICATION_HOURS = 24;
