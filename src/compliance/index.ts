import type { FeatureModule } from '../core/feature-module.js';
import { CONNECTOR_ROUTES } from './connector.rest.js';
import {
  CONNECTOR_IMPORT_TASK,
  CONNECTOR_SCHEDULER_CRON,
  CONNECTOR_SCHEDULER_TASK,
  connectorImportTask,
  connectorSchedulerTask,
} from './connector-import.js';
import { ConnectorRun } from './connector-run.entity.js';
import { ComplianceConnector } from './connector.entity.js';
import { ConnectorResolver, ConnectorUserMappingResolver } from './connector.resolver.js';

/** Compliance data connectors and their import runs (SPEC 4.2 compliance). */
export const complianceModule: FeatureModule = {
  name: 'compliance',
  resolvers: [ConnectorResolver, ConnectorUserMappingResolver],
  entities: [ComplianceConnector, ConnectorRun],
  tasks: { [CONNECTOR_SCHEDULER_TASK]: connectorSchedulerTask, [CONNECTOR_IMPORT_TASK]: connectorImportTask },
  crons: [CONNECTOR_SCHEDULER_CRON],
  routes: { api: CONNECTOR_ROUTES },
  eventKinds: ['connector.status_changed'],
};
