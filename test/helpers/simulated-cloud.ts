import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { AppDeps } from '../../src/core/service-context.js';

/** The simulated cloud a test server runs on (its tenant-first API: seeding, faults, what the cloud holds). */
export function simulatedCloud(app: { deps: AppDeps }): SimulatedCloud {
  return app.deps.clouds as SimulatedCloud;
}
