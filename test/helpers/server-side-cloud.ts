/**
 * Operations of server-side.ts (its SERVER_SIDE spreads them) for the Microsoft 365 files (test/microsoft365):
 * the server's cloud providers, for files on a server of their own in the worker's realm (realm-suite.ts), and
 * the demo database of the CLI files on the shared live server; none of the app's modules or the Graph client's
 * is evaluated in the file for them.
 */
import { ConnectedClouds } from '../../src/cloud-connection/connected-clouds.js';
import type { Scope } from '../../src/core/scope.js';
import { createDemoDatabase } from './cli.js';
import { useGraphAreas } from './graph-areas.js';
import type { TestApp } from './test-app.js';

/**
 * The name of the provider a new ConnectedClouds on the app's ORM gives `scope`, with the app's dependencies but
 * `liveWithoutConnection` (LIVE_WITHOUT_CLOUD_CONNECTION) as given; rejects as `forPartner` does.
 */
async function connectedCloudName(
  app: TestApp,
  scope: Scope,
  liveWithoutConnection: 'simulated' | 'none',
): Promise<string> {
  const clouds = new ConnectedClouds(app.orm, { ...app.deps, liveWithoutConnection });
  return (await clouds.forPartner(scope)).name;
}

/**
 * A database of the file's own holding the demo organization as the CLI's first command leaves it: a clone of the
 * run's seeded demo (createDemoDatabase, test/helpers/cli.ts), not a seed of its own (3-5 s of CPU).
 */
function demoDatabase(_app: TestApp): Promise<string> {
  return createDemoDatabase();
}

export const SERVER_SIDE_CLOUD = { useGraphAreas, connectedCloudName, createDemoDatabase: demoDatabase };
