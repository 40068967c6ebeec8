/**
 * The jest worker's shared live server: one app configured for Microsoft 365 (AppDeps.microsoft365) against one
 * HTTPS Graph fake, per jest worker process, for the test/microsoft365 files that need no configuration of their
 * own (`sharedLiveWorld`, test/microsoft365/live-kit.ts). Like the shared server (shared-server.ts, whose
 * `beginFile` it reuses for the app), it runs outside the test files' vm contexts, from dist/, loaded by
 * test/environment.mjs: a file on it does not evaluate the app's modules, build the schema, open an ORM, start a
 * job runner or start a fake of its own.
 *
 * Isolation per file: the app's as the shared server's (the file's own organizations, clock back at its start,
 * queued jobs dropped, rate windows emptied), and the fake's: the previous file's jobs are stopped first (the
 * runner stops once they end) so none of them reaches the fake afterwards, then the fake forgets everything
 * (GraphFake.reset: a new directory, no faults, no recorded requests). The file seeds its own partner, app and
 * customers (seedGraphScenario, test/helpers/graph-fake.ts) with new ids, so the app's token cache and cloud call
 * budgets (per app and tenant) start empty for it too.
 */
import type { Microsoft365Settings } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import type { WebhookSettings } from '../../src/webhooks/webhook.settings.js';
import { GraphFake, fakeMicrosoft365Settings, trustFakeAuthority } from '../graph-fake/graph-fake.js';
import { startSharedServer, type SharedServerHandle } from './shared-server.js';

/** Device actions polled every 0.5 s (the Defender fake moves an action on each read): the same states, sooner. */
export const LIVE_DEVICE_ACTION_POLL_MS = 500;
/**
 * Restore sessions looked at 0.2 s apart at first instead of 5 s (the Graph fake completes one after a few reads):
 * the same looks, sooner (RESTORE_POLL_MIN_DELAY_MS, src/backup/backup.settings.ts).
 */
export const LIVE_RESTORE_POLL_MIN_DELAY_MS = 200;

/** What a test file gets of the shared live server: the shared server's handle, the fake and its settings. */
export interface SharedLiveServerHandle extends SharedServerHandle {
  /** The worker's Graph fake, reset for this file (its `stop()` is the worker's: files do not call it). */
  fake: GraphFake;
  /** The app's Microsoft 365 settings (the fake's URLs, short retry waits and deadlines). */
  settings: Partial<Microsoft365Settings>;
}

export interface SharedLiveServer {
  beginFile(options: { jobs: boolean; webhooks?: Partial<WebhookSettings> }): Promise<SharedLiveServerHandle>;
  /**
   * The file that used the server has ended (test/environment.mjs's teardown): its jobs stop (the runner once its
   * running jobs end; the queued ones are dropped), then the fake forgets its tenants, faults and requests.
   */
  endFile(): Promise<void>;
  stop(): Promise<void>;
}

export async function startSharedLiveServer(): Promise<SharedLiveServer> {
  // In band, this process started before global setup set NODE_EXTRA_CA_CERTS.
  trustFakeAuthority();
  const fake = await GraphFake.start();
  const settings = fakeMicrosoft365Settings(fake);
  const server = await startSharedServer({
    microsoft365: settings,
    deviceActions: { pollDelayMs: LIVE_DEVICE_ACTION_POLL_MS },
    restores: { pollMinDelayMs: LIVE_RESTORE_POLL_MIN_DELAY_MS },
  });
  // The jobs first, so nothing of the file calls the fake once it is reset (a late sync would record its calls in
  // the next file's list, or be answered from the next file's tenants).
  async function endFile(): Promise<void> {
    await server.beginFile({ jobs: false });
    fake.reset();
  }
  return {
    async beginFile(options) {
      // At the previous file's end already (endFile); again in case a request of it still running added a job.
      await endFile();
      return { ...(await server.beginFile(options)), fake, settings };
    },
    endFile,
    async stop() {
      await server.stop();
      await fake.stop();
    },
  };
}
