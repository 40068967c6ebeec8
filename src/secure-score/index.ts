import type { FeatureModule } from '../core/feature-module.js';
import { SECURE_SCORE_ROUTES } from './secure-score.rest.js';
import { SecureScoreSnapshot } from './secure-score-snapshot.entity.js';
import { CloudSecureScore } from './cloud-secure-score.entity.js';
import { secureScoreSyncStep } from './cloud-secure-score-sync.js';
import { SecureScoreResolver } from './secure-score.resolver.js';
import {
  SECURE_SCORE_SNAPSHOT_CRON,
  SECURE_SCORE_SNAPSHOT_TASK,
  secureScoreSnapshotTask,
} from './secure-score.task.js';

/** Secure score across tenants and its daily history (SPEC 4.3): computed, or Microsoft's (docs/microsoft365.md). */
export const secureScoreModule: FeatureModule = {
  name: 'secure-score',
  resolvers: [SecureScoreResolver],
  entities: [SecureScoreSnapshot, CloudSecureScore],
  tasks: { [SECURE_SCORE_SNAPSHOT_TASK]: secureScoreSnapshotTask },
  crons: [SECURE_SCORE_SNAPSHOT_CRON],
  routes: { api: SECURE_SCORE_ROUTES },
  syncStep: secureScoreSyncStep,
};
