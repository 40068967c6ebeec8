import { SimulatedTenantGrant } from './consent.simulated.js';
import { SimulatedCloudObject, SimulatedCloudTenant } from './simulated-cloud.entity.js';

/**
 * The simulated cloud's one entry point (DECISIONS "The upstream cloud": the sandbox's cloud, and the
 * development one). Only the application's wiring reaches it — main.ts, the CLI, the seeds and the entity
 * list (src/db/entities.ts), and tests — and features never do: they see any cloud through `ctx.cloud`
 * (src/cloud/cloud-access.ts). `.dependency-cruiser.mjs` holds both rules.
 */
export { SimulatedCloud } from './simulated-cloud.js';
export type { SimulatedTenantSpec } from './simulated-tenant-spec.js';
export type { SimulatedCall, SimulatedFault } from './simulated-faults.js';
export { SimulatedCloudObject, SimulatedCloudTenant, SimulatedTenantGrant };

/** The simulated cloud's own tables (outside any organization's scope), for the ORM's entity list. */
export const SIMULATED_CLOUD_ENTITIES = [SimulatedCloudTenant, SimulatedCloudObject, SimulatedTenantGrant];
