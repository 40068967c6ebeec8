import type { MikroORM } from '@mikro-orm/postgresql';
import type { CronItem, TaskList } from 'graphile-worker';
import type { AppDeps } from './core/service-context.js';
import { FEATURE_MODULES, SYNC_STEPS } from './features.js';

/** Every background task by name, from the feature list (src/features.ts). A name taken twice is refused. */
export function taskList(orm: MikroORM, deps: AppDeps): TaskList {
  const tasks: TaskList = {};
  const wiring = { syncSteps: SYNC_STEPS };
  for (const feature of FEATURE_MODULES) {
    for (const [name, build] of Object.entries(feature.tasks ?? {})) {
      if (name in tasks) throw new Error(`The task name ${name} is taken twice (feature ${feature.name})`);
      tasks[name] = build(orm, deps, wiring);
    }
  }
  return tasks;
}

/** Scheduled work of every feature; graphile-worker runs each item once per tick across every process. */
export const cronItems: CronItem[] = FEATURE_MODULES.flatMap((feature) => feature.crons ?? []);
