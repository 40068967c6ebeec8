import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createApp, type App, type AppOptions } from '../../src/app.js';
import { PgListener } from '../../src/core/pg-listener.js';
import { sharedSchema, type TestApp } from '../helpers/test-app.js';

/**
 * The whole app (createApp, as main.ts builds it) on a TestApp's database and clock, with the options
 * TestApp does not take: `trustProxy` (TRUST_PROXY) and `oauthLimits`. A second server in this process:
 * counters, tokens and keys are shared with the TestApp through the database.
 */
export class AppWithOptions {
  private constructor(
    readonly baseUrl: string,
    private readonly app: App,
    private readonly listener: PgListener,
  ) {}

  /**
   * `listenerDatabaseUrl`: where its LISTEN connection goes; another database cuts it off from the
   * NOTIFYs of other servers (to show what it does without them).
   */
  static async start(
    base: TestApp,
    options: Pick<AppOptions, 'trustProxy' | 'oauthLimits'> & { listenerDatabaseUrl?: string },
  ): Promise<AppWithOptions> {
    const { listenerDatabaseUrl, ...appOptions } = options;
    const listener = new PgListener(listenerDatabaseUrl ?? base.databaseUrl);
    await listener.start();
    const app = await createApp({
      ...base.deps,
      orm: base.orm,
      pool: base.pool,
      schema: await sharedSchema(),
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      maxJsonBodyBytes: 1024 * 1024,
      listener,
      isReady: () => true,
      ...appOptions,
    });
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    const { port } = app.server.address() as AddressInfo;
    return new AppWithOptions(`http://127.0.0.1:${port}`, app, listener);
  }

  async stop(): Promise<void> {
    await this.app.stop();
    await new Promise<void>((resolve) => this.app.server.close(() => resolve()));
    await this.listener.stop();
  }
}
