import type { FeatureModule } from '../core/feature-module.js';
import type { SyncStep } from './sync-step.js';

/**
 * The steps of a tenant sync, from the feature list (src/features.ts passes it): in the list's order, except
 * that a step comes after the steps it names in `after`. Refuses a step name taken twice, an `after` that no
 * step has, and steps that wait for each other.
 */
export function syncStepsOf(features: readonly Pick<FeatureModule, 'name' | 'syncStep'>[]): SyncStep[] {
  const steps = features.flatMap((feature) => (feature.syncStep ? [feature.syncStep] : []));
  const names = new Set<string>();
  for (const step of steps) {
    if (names.has(step.name)) throw new Error(`The sync step name ${step.name} is taken twice`);
    names.add(step.name);
  }
  for (const step of steps) {
    for (const name of step.after ?? []) {
      if (!names.has(name))
        throw new Error(`The sync step ${step.name} comes after ${name}, which no feature has`);
    }
  }
  const ordered: SyncStep[] = [];
  const placed = new Set<string>();
  while (ordered.length < steps.length) {
    const next = steps.find(
      (step) => !placed.has(step.name) && (step.after ?? []).every((name) => placed.has(name)),
    );
    if (!next) {
      const waiting = steps.filter((step) => !placed.has(step.name)).map((step) => step.name);
      throw new Error(`The sync steps ${waiting.join(', ')} wait for each other`);
    }
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
}
