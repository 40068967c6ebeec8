import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { pino } from 'pino';
import { createApp } from '../src/app.js';
import { SimulatedCloud } from '../src/cloud/simulated/index.js';
import { systemClock } from '../src/core/clock.js';
import { PgListener } from '../src/core/pg-listener.js';
import { QueryLog } from '../src/db/query-log.js';
import { OUTBOX_SUBSCRIBERS } from '../src/features.js';
import { buildAppSchema } from '../src/schema.js';
import { restUsersPath } from './targets.js';

/** Collects the statements MikroORM logs while switched on: the tests' recorder too (src/db/query-log.ts). */
export { QueryLog as StatementRecorder };

export interface StatementCounts {
  byLimit: Record<number, number>;
  equal: boolean;
  /** The statements of the largest page, so an N+1 shows what repeats. */
  statementsAtLargestLimit: string[];
}

async function getOk(url: string, apiKey: string): Promise<void> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 500)}`);
}

/**
 * SQL statements of one REST users-list request per page size, counted in this process: the app is
 * built here (as the tests build it) on the bench ORM, whose query log feeds `recorder`.
 * Statements sent through the plain pool (the rate limiter's counter) are not ORM statements and not counted.
 */
export async function countStatements(options: {
  orm: MikroORM;
  pool: pg.Pool;
  databaseUrl: string;
  recorder: QueryLog;
  apiKey: string;
  tenantId: string;
  limits: number[];
}): Promise<StatementCounts> {
  const listener = new PgListener(options.databaseUrl);
  await listener.start();
  try {
    const app = await createApp({
      clock: systemClock,
      clouds: new SimulatedCloud(options.orm, systemClock),
      publicUrl: 'http://bench.local',
      outboxSubscribers: OUTBOX_SUBSCRIBERS,
      orm: options.orm,
      pool: options.pool,
      schema: await buildAppSchema(),
      logger: pino({ level: 'silent' }),
      maxJsonBodyBytes: 1024 * 1024,
      listener,
      isReady: () => true,
    });
    try {
      await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
      const { port } = app.server.address() as AddressInfo;
      return await countPerLimit(`http://127.0.0.1:${port}`, options);
    } finally {
      await app.stop();
      await new Promise<void>((resolve) => app.server.close(() => resolve()));
    }
  } finally {
    await listener.stop();
  }
}

async function countPerLimit(
  baseUrl: string,
  options: { recorder: QueryLog; apiKey: string; tenantId: string; limits: number[] },
): Promise<StatementCounts> {
  const urlFor = (limit: number) => baseUrl + restUsersPath(options.tenantId, limit);
  // Warm-up: the key lookup and anything else cached per process are not part of a request's cost.
  await getOk(urlFor(options.limits[0]), options.apiKey);
  const byLimit: Record<number, number> = {};
  let statementsAtLargestLimit: string[] = [];
  for (const limit of options.limits) {
    const statements = await options.recorder.statementsDuring(() => getOk(urlFor(limit), options.apiKey));
    byLimit[limit] = statements.length;
    if (limit === Math.max(...options.limits)) statementsAtLargestLimit = statements;
  }
  const counts = Object.values(byLimit);
  return { byLimit, equal: counts.every((count) => count === counts[0]), statementsAtLargestLimit };
}
