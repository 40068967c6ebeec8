/** SPEC 2.6 "Data connector": what kind of third-party data it brings in. */
export enum ConnectorCategory {
  COMMUNICATION = 'Communication',
  SOCIAL_MEDIA = 'Social Media',
  FINANCIAL = 'Financial',
  HR = 'HR',
  PHYSICAL = 'Physical',
}

/** SPEC 3.3: Active or Paused (a paused connector shows its configuration error). */
export enum ConnectorStatus {
  ACTIVE = 'Active',
  PAUSED = 'Paused',
}

/** PUT /api/compliance/connectors/:id may move the status (docs/compliance.md). */
export enum ConnectorAction {
  PAUSE = 'Pause',
  RESUME = 'Resume',
}

/** The status endpoint's summary (docs/compliance.md "Health"). */
export enum ConnectorHealth {
  HEALTHY = 'Healthy',
  DEGRADED = 'Degraded',
  ERROR = 'Error',
  PAUSED = 'Paused',
}

export enum ConnectorRunStatus {
  QUEUED = 'Queued',
  RUNNING = 'Running',
  SUCCEEDED = 'Succeeded',
  FAILED = 'Failed',
}

/** How identities of the source are matched to the tenant's users. */
export enum UserMappingStrategy {
  EMAIL = 'Email',
  MAPPING_TABLE = 'Mapping table',
}

export enum UnmatchedHandling {
  SKIP = 'Skip',
  IMPORT_TO_FALLBACK_MAILBOX = 'Import to fallback mailbox',
}
