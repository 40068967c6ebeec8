import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { SimulatedCloud } from '../cloud/simulated/index.js';
import { loadConfig } from '../config.js';
import { systemClock } from '../core/clock.js';
import type { AppDeps, ServiceContext } from '../core/service-context.js';
import { Environment, type Scope } from '../core/scope.js';
import { createJobContext } from '../context.js';
import { runningServerUrl } from '../db/data-dir-lock.js';
import { prepareDatabase } from '../db/prepare.js';
import { chooseSecretBox } from '../db/secrets-key.js';
import { DEMO_ORGANIZATION_SLUG, seedDemoIfEmpty } from '../db/seeds/demo.js';
import { OUTBOX_SUBSCRIBERS } from '../features.js';
import { Organization } from '../organizations/organization.entity.js';
import { cliIo } from './cli-io.js';

/** A failure to report in one line on stderr, with exit code 1 (no stack trace). */
export class CliError extends Error {}

export interface CliDatabase {
  orm: MikroORM;
  deps: AppDeps;
  /** The plain pool, for a command that runs jobs itself (users import). */
  pool: pg.Pool;
}

/** Informational output goes to stderr, so stdout carries only the result (e.g. a new key). */
export function info(message: string): void {
  cliIo().stderr.write(`${message}\n`);
}

/**
 * Runs `action` against the server's database, reached exactly as the server reaches it (DATABASE_URL,
 * else the embedded PostgreSQL under DATA_DIR, joining a running server's instance rather than starting
 * a second one), migrated, and with the demo organization seeded on a fresh database (unless SEED_DEMO=false).
 * Closes everything afterwards; an embedded PostgreSQL is stopped only if this process started it.
 */
export async function withDatabase<T>(action: (db: CliDatabase) => Promise<T>): Promise<T> {
  const { env } = cliIo();
  const config = loadConfig(env);
  // Links name the server this CLI administers: PUBLIC_URL or PORT when given (or --url), else the running
  // server's own origin (a server started with PORT=4001 is found through its data folder).
  if (!env.PUBLIC_URL && !env.PORT && !config.databaseUrl)
    config.publicUrl = runningServerUrl(config.dataDir) ?? config.publicUrl;
  const verbose = ['debug', 'trace'].includes(config.logLevel);
  const database = await prepareDatabase(config, { log: verbose ? info : () => undefined, poolMax: 4 });
  try {
    const deps: AppDeps = {
      clock: systemClock,
      clouds: new SimulatedCloud(database.orm, systemClock),
      publicUrl: config.publicUrl,
      outboxSubscribers: OUTBOX_SUBSCRIBERS,
      // The server's key and endpoints: a secret the CLI seals (a cloud connection's) opens in the server.
      webhooks: { secretBox: chooseSecretBox(config).box },
      microsoft365: {
        loginUrl: config.microsoftLoginUrl,
        graphUrl: config.microsoftGraphUrl,
        defenderUrl: config.microsoftDefenderUrl,
      },
      liveWithoutConnection: config.liveWithoutConnection,
    };
    if (config.seedDemo && (await seedDemoIfEmpty(database.orm, deps))) {
      info(`Seeded the demo organization "${DEMO_ORGANIZATION_SLUG}" with a sandbox of sample data.`);
    }
    return await action({ orm: database.orm, deps, pool: database.pool });
  } finally {
    await database.close();
  }
}

export async function findOrganization(orm: MikroORM, slug: string): Promise<Organization> {
  const em = orm.em.fork();
  const organization = await em.findOne(Organization, { slug });
  if (organization) return organization;
  const known = await em.find(Organization, {}, { orderBy: { slug: 'asc' }, limit: 20, fields: ['slug'] });
  const hint = known.length > 0 ? ` Known organizations: ${known.map((o) => o.slug).join(', ')}.` : '';
  throw new CliError(`Organization "${slug}" was not found.${hint}`);
}

/** `live` or `test` on the command line (keys svc_sk_live_ / svc_sk_test_); test is the sandbox. */
export const ENVIRONMENT_CHOICES = ['live', 'test'] as const;
export type EnvironmentChoice = (typeof ENVIRONMENT_CHOICES)[number];

export function environmentOf(choice: EnvironmentChoice): Environment {
  return choice === 'live' ? Environment.LIVE : Environment.SANDBOX;
}

/** A service context acting in one organization and environment, as a job would. */
export function contextFor(db: CliDatabase, scope: Scope, actor: string): ServiceContext {
  return createJobContext(db.orm, db.deps, scope, actor);
}
