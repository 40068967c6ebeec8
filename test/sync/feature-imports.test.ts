import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The tenant sync runs the features' steps without knowing them: src/sync imports no feature at all, and
 * src/tenants none but the one below (features may import tenants, not the other way round).
 */

const SRC = path.resolve('src');
const FEATURES = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(SRC, entry.name, 'index.ts')))
  .map((entry) => entry.name);

/** Not the sync's: the tenant list's filter by tenant group (TenantService.list) is the tenant-groups feature's. */
const KNOWN = new Set(['tenant.service.ts -> tenant-groups']);

function featureImports(folder: string): string[] {
  const found: string[] = [];
  for (const file of readdirSync(path.join(SRC, folder)).filter((name) => name.endsWith('.ts'))) {
    const source = readFileSync(path.join(SRC, folder, file), 'utf8');
    for (const [, target] of source.matchAll(/from '\.\.\/([^/']+)\//g)) {
      if (target !== folder && FEATURES.includes(target)) found.push(`${file} -> ${target}`);
    }
  }
  return found;
}

describe('feature imports', () => {
  it('finds the feature folders', () => {
    expect(FEATURES).toEqual(
      expect.arrayContaining(['tenants', 'users', 'licenses', 'contacts', 'security']),
    );
    expect(FEATURES).not.toContain('sync');
  });

  it('src/tenants imports no feature', () => {
    expect(featureImports('tenants').filter((found) => !KNOWN.has(found))).toEqual([]);
  });

  it('src/sync imports no feature', () => {
    expect(featureImports('sync')).toEqual([]);
  });
});
