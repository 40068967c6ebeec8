/**
 * Operations of server-side.ts (its SERVER_SIDE spreads them) for files that read or write a row through the
 * ORM rather than over HTTP or in SQL: an entity named by its class name (the file's copy of the class is not
 * the one the server's ORM knows), the simulated cloud's store. What the
 * file did with `app.orm.em.fork()` it does through these, keeping its assertions on what comes back.
 */
import type { EntityClass, EntityManager } from '@mikro-orm/postgresql';
import { exportArchive } from '../../src/backup/restore-download.js';
import { RestoreJob } from '../../src/backup/restore-job.entity.js';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { SimulatedObjectKind } from '../../src/cloud/simulated/simulated-cloud.entity.js';
import type { TestApp } from './test-app.js';

/** The server's class of the entity named `entity` (its class name, e.g. 'TenantSync'). */
function entityClass(app: TestApp, entity: string): EntityClass<object> {
  return app.orm.getMetadata().getByClassName(entity).class as EntityClass<object>;
}

type Where = Record<string, unknown>;

/** `em.findOne(entity, where)` on a fresh fork, every filter off (as a file's `{ filters: false }` read was). */
async function findEntity(
  app: TestApp,
  entity: string,
  where: Where,
): Promise<Record<string, unknown> | null> {
  const em = app.orm.em.fork();
  return (await em.findOne(entityClass(app, entity), where as never, { filters: false })) as Record<
    string,
    unknown
  > | null;
}

/** A new `entity` made with `data` (em.create) and flushed: the entity as written (its id, its defaults). */
async function createEntity(app: TestApp, entity: string, data: Where): Promise<Record<string, unknown>> {
  const em = app.orm.em.fork();
  const created = em.create(entityClass(app, entity), data as never);
  await em.flush();
  return created as Record<string, unknown>;
}

/** `em.nativeUpdate(entity, where, data)`, every filter off: the rows updated. */
function updateEntities(app: TestApp, entity: string, where: Where, data: Where): Promise<number> {
  return app.orm.em
    .fork()
    .nativeUpdate(entityClass(app, entity), where as never, data as never, { filters: false });
}

/** `em.nativeDelete(entity, where)`, every filter off: the rows deleted. */
function deleteEntities(app: TestApp, entity: string, where: Where): Promise<number> {
  return app.orm.em.fork().nativeDelete(entityClass(app, entity), where as never, { filters: false });
}

/** An object written into the simulated cloud's store as it is (SimulatedCloud.put), e.g. a user with a chosen id. */
async function putCloudObject(
  app: TestApp,
  tenantExternalId: string,
  kind: SimulatedObjectKind,
  externalId: string,
  data: Record<string, unknown>,
): Promise<void> {
  const em: EntityManager = app.orm.em.fork();
  await (app.deps.clouds as SimulatedCloud).put(em, tenantExternalId, kind, externalId, data);
}

/**
 * The export archive of restore job `jobId` as the download streams it (src/backup/restore-download.ts), read
 * `pageSize` items a statement, whole: a small page proves the pages join into the same archive.
 */
async function restoreExportArchive(app: TestApp, jobId: string, pageSize: number): Promise<string> {
  const job = await app.orm.em.fork().findOneOrFail(RestoreJob, { id: jobId }, { filters: false });
  let archive = '';
  for await (const chunk of exportArchive(app.orm.em.fork(), job, pageSize)) archive += chunk;
  return archive;
}

export const SERVER_SIDE_ROWS = {
  findEntity,
  createEntity,
  updateEntities,
  deleteEntities,
  putCloudObject,
  restoreExportArchive,
};
