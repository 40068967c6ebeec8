/**
 * Operations of server-side.ts (its SERVER_SIDE spreads them) over the server's cloud providers, for the
 * Microsoft 365 files on a server of their own in the worker's realm (realm-suite.ts): they reach the app's
 * clouds and ORM without evaluating the app's modules or the Graph client's in the file.
 */
import { ConnectedClouds } from '../../src/cloud-connection/connected-clouds.js';
import type { Scope } from '../../src/core/scope.js';
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

export const SERVER_SIDE_CLOUD = { useGraphAreas, connectedCloudName };
