import { ConnectorCategory } from './connector.enums.js';

/**
 * The source types a connector can import from, by category, and the credential fields each needs
 * (docs/compliance.md "Sources"). Credentials are sealed at rest and never returned; only their names are.
 */
export const CONNECTOR_SOURCES: Record<ConnectorCategory, Record<string, readonly string[]>> = {
  [ConnectorCategory.COMMUNICATION]: {
    Slack: ['workspaceUrl', 'apiToken'],
    Zoom: ['accountId', 'clientId', 'clientSecret'],
    WhatsApp: ['phoneNumberId', 'accessToken'],
    Webex: ['orgId', 'accessToken'],
  },
  [ConnectorCategory.SOCIAL_MEDIA]: {
    LinkedIn: ['companyPageId', 'accessToken'],
    X: ['accountHandle', 'bearerToken'],
    Facebook: ['pageId', 'accessToken'],
  },
  [ConnectorCategory.FINANCIAL]: {
    'Bloomberg Message': ['firmId', 'sftpUser', 'sftpPassword'],
    'ICE Chat': ['companyId', 'sftpUser', 'sftpPassword'],
    'Reuters Eikon': ['accountId', 'apiKey'],
  },
  [ConnectorCategory.HR]: {
    Workday: ['tenantUrl', 'clientId', 'clientSecret'],
    'SAP SuccessFactors': ['apiServer', 'companyId', 'apiKey'],
    BambooHR: ['subdomain', 'apiKey'],
  },
  [ConnectorCategory.PHYSICAL]: {
    'Physical badging': ['systemUrl', 'apiKey'],
  },
};

/** Schedule range in hours (SPEC 8.3: typically every 24 hours). */
export const DEFAULT_SCHEDULE_HOURS = 24;
export const MIN_SCHEDULE_HOURS = 1;
export const MAX_SCHEDULE_HOURS = 168;
/** Consecutive failed runs that pause a connector. */
export const FAILURES_BEFORE_PAUSE = 3;
export const MAX_USER_MAPPINGS = 1000;
