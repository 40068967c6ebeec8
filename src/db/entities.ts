import { SIMULATED_CLOUD_ENTITIES } from '../cloud/simulated/index.js';
import { DomainEvent } from '../core/events/domain-event.entity.js';
import { JobWorkerHeartbeat } from '../core/job-worker-heartbeat.entity.js';
import { FEATURE_MODULES } from '../features.js';
import { SecretsKeyCheck } from './secrets-key-check.entity.js';

/**
 * Entities that belong to an organization and environment; the scope filter applies to each. The platform's
 * own (the event outbox) and every feature's (src/features.ts).
 */
export const SCOPED_ENTITIES = [DomainEvent, ...FEATURE_MODULES.flatMap((feature) => feature.entities ?? [])];

/** Every entity: the scoped ones, the platform's unscoped tables (the simulated cloud, workers, the key check) and the features'. */
export const ALL_ENTITIES = [
  ...SIMULATED_CLOUD_ENTITIES,
  JobWorkerHeartbeat,
  SecretsKeyCheck,
  ...FEATURE_MODULES.flatMap((feature) => feature.unscopedEntities ?? []),
  ...SCOPED_ENTITIES,
];
