import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { getOperationAST, parse } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { EVENT_KINDS } from '../../src/core/events/event-kinds.js';
import { FEATURE_MODULES } from '../../src/features.js';

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: Array<{ name: string }>;
}

/** dependency-cruiser over src/ and rest-adapter/ with the house rules of .dependency-cruiser.mjs. */
function cruise(): { violations: Violation[]; cruised: number; rules: string[] } {
  const cli = path.resolve('node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
  const run = spawnSync(
    process.execPath,
    [cli, 'src', 'rest-adapter', '--config', '.dependency-cruiser.mjs', '--output-type', 'json'],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (!run.stdout) throw new Error(`dependency-cruiser did not run: ${run.stderr}`);
  const result = JSON.parse(run.stdout) as {
    summary: {
      violations: Violation[];
      totalCruised: number;
      ruleSetUsed: { forbidden: Array<{ name: string }> };
    };
  };
  return {
    violations: result.summary.violations,
    cruised: result.summary.totalCruised,
    rules: result.summary.ruleSetUsed.forbidden.map((rule) => rule.name),
  };
}

const describeViolation = (violation: Violation): string =>
  violation.cycle
    ? `${violation.rule.name}: ${violation.from} → ${violation.cycle.map((step) => step.name).join(' → ')}`
    : `${violation.rule.name}: ${violation.from} → ${violation.to}`;

describe('the shape of the house (docs/architecture.md)', () => {
  it('has no import cycle; core/, tenants/, sync/ and rest-adapter/ import no feature; the simulated cloud is wiring only, through its index.ts; no route file serves two features', () => {
    const { violations, cruised, rules } = cruise();
    expect(rules).toEqual([
      'no-circular',
      'core-imports-no-feature',
      'tenants-import-no-feature',
      'sync-imports-no-feature',
      'rest-adapter-is-only-the-engine',
      'simulated-cloud-behind-its-entry-point',
      'simulated-cloud-for-wiring-only',
      'rest-routes-belong-to-their-feature',
    ]);
    expect(cruised).toBeGreaterThan(400); // src/ and rest-adapter/ themselves, not an empty cruise
    expect(violations.map(describeViolation)).toEqual([]);
  }, 60_000);

  it('lists every feature folder exactly once in src/features.ts, named as its folder', () => {
    const folders = readdirSync('src', { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(path.join('src', entry.name, 'index.ts')))
      .map((entry) => entry.name)
      .sort();
    const listed = FEATURE_MODULES.map((feature) => feature.name);
    expect([...listed].sort()).toEqual(folders);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("runs from each feature's routes only its own resolvers' fields (one exception, written down)", () => {
    const storage = getMetadataStorage();
    const resolverOf = new Map<string, string>();
    for (const field of [...storage.queries, ...storage.mutations])
      resolverOf.set(field.schemaName, (field.target as { name: string }).name);
    /** The user-management workspace creates and reads users through the users feature's own fields. */
    const borrowed = new Set(['user-management → createUser', 'user-management → user']);
    const strays: string[] = [];
    for (const feature of FEATURE_MODULES) {
      const own = new Set((feature.resolvers ?? []).map((resolver) => resolver.name));
      for (const route of [...(feature.routes?.v1 ?? []), ...(feature.routes?.api ?? [])]) {
        const operation = getOperationAST(parse(route.operation));
        const selection = operation?.selectionSet.selections[0];
        const field = selection?.kind === 'Field' ? selection.name.value : '?';
        if (!own.has(resolverOf.get(field) ?? '') && !borrowed.has(`${feature.name} → ${field}`))
          strays.push(`${feature.name}: ${route.method} ${route.path} runs ${field}`);
      }
    }
    expect(strays).toEqual([]);
  });

  it('gives every event kind of the catalog to exactly one feature', () => {
    const owners = new Map<string, string[]>();
    for (const feature of FEATURE_MODULES)
      for (const kind of feature.eventKinds ?? [])
        owners.set(kind, [...(owners.get(kind) ?? []), feature.name]);
    const unowned = EVENT_KINDS.filter((kind) => !owners.has(kind));
    const shared = [...owners].filter(([, names]) => names.length > 1).map(([kind]) => kind);
    expect({ unowned, shared }).toEqual({ unowned: [], shared: [] });
    expect(owners.get('user.created')).toEqual(['users']);
    expect(owners.get('webhook.disabled')).toEqual(['webhooks']);
  });
});
