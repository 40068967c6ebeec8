// The house rules of docs/architecture.md, checked by test/structure/structure.test.ts (and `npm run structure`).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.dirname(new URL(import.meta.url).pathname);

/** A feature is a folder of src/ with an index.ts (its FeatureModule); the rest of src/ is the platform. */
const FEATURES = readdirSync(path.join(root, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(root, 'src', entry.name, 'index.ts')))
  .map((entry) => entry.name);
const anyFeature = `^src/(${FEATURES.join('|')})/`;
/** The application's wiring, which knows every feature: below-the-features code must not reach it either. */
const WIRING = '^src/(features|schema|tasks|app|context|main)\\.ts$';
/** The same without src/context.ts, which builds request and job contexts from core and the tenants' consent. */
const WIRING_OF_FEATURES = '^src/(features|schema|tasks|app|main)\\.ts$';

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle makes load order matter and ties two places to each other both ways.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-no-feature',
      comment:
        'src/core is the floor every feature stands on: it knows no feature (features register with it).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: [anyFeature, WIRING] },
    },
    {
      name: 'tenants-import-no-feature',
      comment:
        'Every feature stands on the tenants; the tenant sync reaches the features through their syncStep.',
      severity: 'error',
      from: { path: '^src/tenants/' },
      to: { path: [anyFeature, WIRING_OF_FEATURES], pathNot: '^src/tenants/' },
    },
    {
      name: 'sync-imports-no-feature',
      comment: 'src/sync runs the steps it is given (SYNC_STEPS in src/features.ts); it knows no feature.',
      severity: 'error',
      from: { path: '^src/sync/' },
      to: { path: [anyFeature, WIRING_OF_FEATURES] },
    },
    {
      name: 'rest-adapter-is-only-the-engine',
      comment:
        'rest-adapter/ compiles and serves route tables that the features declare; it names no feature.',
      severity: 'error',
      from: { path: '^rest-adapter/' },
      to: { path: [anyFeature, WIRING] },
    },
    {
      name: 'simulated-cloud-behind-its-entry-point',
      comment:
        'The simulated cloud is one provider among others: outside src/cloud/simulated it is reached through its index.ts only.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cloud/simulated/' },
      to: { path: '^src/cloud/simulated/', pathNot: '^src/cloud/simulated/index\\.ts$' },
    },
    {
      name: 'simulated-cloud-for-wiring-only',
      comment:
        'Only the wiring (main.ts, the CLI, the seeds, the entity list) chooses the simulated cloud; features and the platform see any cloud through ctx.cloud (src/cloud/cloud-access.ts).',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: '^src/(main\\.ts|cli/|db/seeds/|db/entities\\.ts|cloud/simulated/)',
      },
      to: { path: '^src/cloud/simulated/' },
    },
    {
      name: 'rest-routes-belong-to-their-feature',
      comment: "A feature's *.rest.ts is listed by its own index.ts only: no route file serves two features.",
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/[^/]+/[^/]+\\.rest\\.ts$', pathNot: '^src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count too: a type is as much a dependency for the reader as a value.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
