import type { EntityClass } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { CronItem, Task } from 'graphile-worker';
import type { ClassType } from 'type-graphql';
import type { RouteDefinition } from '../../rest-adapter/route.js';
import type { SyncStep } from '../sync/sync-step.js';
import type { OutboxSubscriber } from './events/event-fanout.js';
import type { EventKind } from './events/event-kinds.js';
import type { AppDeps } from './service-context.js';

/**
 * What a task may need from the feature list itself, which no feature can import (its own module is part of
 * the list): given by the wiring (src/tasks.ts) when it builds the tasks.
 */
export interface TaskWiring {
  /** The steps of a tenant sync, every feature's `syncStep` in order (SYNC_STEPS, src/features.ts). */
  readonly syncSteps: readonly SyncStep[];
}

/** Builds a background task once the process has its ORM and dependencies (graphile-worker's `Task`). */
export type TaskFactory = (orm: MikroORM, deps: AppDeps, wiring: TaskWiring) => Task;

/**
 * Everything a feature folder brings to the application, declared in its `index.ts` and listed once in
 * `src/features.ts`: the schema, the ORM's entities, the job queue's tasks and schedule, the REST route table
 * and the OpenAPI document are all derived from the list, so adding a feature is one folder plus one line there.
 */
export interface FeatureModule {
  /** The folder's name, for messages and the structure test. */
  readonly name: string;
  /** type-graphql resolver classes. */
  readonly resolvers?: readonly ClassType[];
  /**
   * Entities whose rows belong to one organization and environment: the scope filter applies to each, so a
   * query made in a request can only ever read its own organization's rows.
   */
  readonly entities?: readonly EntityClass<object>[];
  /** Entities outside any one organization's scope (organizations themselves, cross-organization counters). */
  readonly unscopedEntities?: readonly EntityClass<object>[];
  /** Background tasks by graphile-worker task name. */
  readonly tasks?: Readonly<Record<string, TaskFactory>>;
  /** Scheduled work; graphile-worker runs each item once per tick across every process. */
  readonly crons?: readonly CronItem[];
  /**
   * REST routes (each beside the GraphQL document it runs, in the feature's `*.rest.ts`): `v1` is the versioned
   * API of SPEC 4.1 (served under /v1), `api` the feature endpoints of SPEC 4.2 (under /api and /v1/api).
   */
  readonly routes?: { readonly v1?: readonly RouteDefinition[]; readonly api?: readonly RouteDefinition[] };
  /** The event kinds of the catalog this feature emits (each kind is owned by exactly one feature). */
  readonly eventKinds?: readonly EventKind[];
  /**
   * What a tenant sync brings in line with the cloud for this feature (its rows, mapped from the cloud's
   * records by the feature itself); the sync (src/sync) runs every feature's step.
   */
  readonly syncStep?: SyncStep;
  /** What acts on every recorded event inside its transaction (core/events/event-fanout.ts). */
  readonly outboxSubscribers?: readonly OutboxSubscriber[];
}
