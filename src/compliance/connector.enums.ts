import { registerEnumType } from 'type-graphql';

/** SPEC 2.6 "Data connector": what kind of third-party data it brings in. */
export enum ConnectorCategory {
  COMMUNICATION = 'Communication',
  SOCIAL_MEDIA = 'Social Media',
  FINANCIAL = 'Financial',
  HR = 'HR',
  PHYSICAL = 'Physical',
}
registerEnumType(ConnectorCategory, {
  name: 'ConnectorCategory',
  description: 'Communication, Social Media, Financial, HR or Physical',
});

/** SPEC 3.3: Active or Paused (a paused connector shows its configuration error). */
export enum ConnectorStatus {
  ACTIVE = 'Active',
  PAUSED = 'Paused',
}
registerEnumType(ConnectorStatus, { name: 'ConnectorStatus', description: 'Active or Paused' });

/** PUT /api/compliance/connectors/:id may move the status (docs/compliance.md). */
export enum ConnectorAction {
  PAUSE = 'Pause',
  RESUME = 'Resume',
}
registerEnumType(ConnectorAction, {
  name: 'ConnectorAction',
  description: 'Pause (Active → Paused) or Resume (Paused → Active, after a test connection)',
});

/** The status endpoint's summary (docs/compliance.md "Health"). */
export enum ConnectorHealth {
  HEALTHY = 'Healthy',
  DEGRADED = 'Degraded',
  ERROR = 'Error',
  PAUSED = 'Paused',
}
registerEnumType(ConnectorHealth, {
  name: 'ConnectorHealth',
  description:
    'Healthy (last run fine), Degraded (Active, but the last runs failed), Error (paused by three failed ' +
    'runs or a configuration error), Paused (paused by an administrator)',
});

export enum ConnectorRunStatus {
  QUEUED = 'Queued',
  RUNNING = 'Running',
  SUCCEEDED = 'Succeeded',
  FAILED = 'Failed',
}
registerEnumType(ConnectorRunStatus, {
  name: 'ConnectorRunStatus',
  description: 'Queued, Running, Succeeded or Failed',
});

/** How identities of the source are matched to the tenant's users. */
export enum UserMappingStrategy {
  EMAIL = 'Email',
  MAPPING_TABLE = 'Mapping table',
}
registerEnumType(UserMappingStrategy, {
  name: 'UserMappingStrategy',
  description: 'Email (source address = user principal name) or Mapping table (explicit pairs)',
});

export enum UnmatchedHandling {
  SKIP = 'Skip',
  IMPORT_TO_FALLBACK_MAILBOX = 'Import to fallback mailbox',
}
registerEnumType(UnmatchedHandling, {
  name: 'UnmatchedHandling',
  description:
    'Items of identities no mapping matches: Skip (counted as errors) or Import to fallback mailbox',
});
