import { readdirSync } from 'node:fs';
import { MIGRATIONS } from '../../src/db/migrations/index.js';

/**
 * MikroORM's migrator knows a migration by its whole name (`mikro_orm_migrations.name`) and runs MIGRATIONS in
 * the order listed: the timestamp is only part of a name. So a landed migration is never renamed (a database
 * that ran it would run it again under the new name), and a new one takes a timestamp no other has
 * (docs/development.md). Two that landed on the same day share one; they stay as they are.
 */
const SHARED_BEFORE_THE_RULE = new Set([
  'Migration20261231090000_tracked_run_tokens',
  'Migration20261231090000_cloud_connections',
]);

const timestampOf = (name: string) => /^Migration(\d{14})_/.exec(name)?.[1];

describe('the migration list', () => {
  it('names every migration once, as its file and class are named', () => {
    const names = MIGRATIONS.map((migration) => migration.name);
    expect(new Set(names).size).toBe(names.length);
    for (const migration of MIGRATIONS) expect(migration.class?.name).toBe(migration.name);
    const files = readdirSync(new URL('../../src/db/migrations/', import.meta.url))
      .filter((file) => file.startsWith('Migration'))
      .map((file) => file.replace(/\.ts$/, ''));
    expect([...names].sort()).toEqual(files.sort());
  });

  it('gives every new migration a timestamp of its own', () => {
    const byTimestamp = new Map<string, string[]>();
    for (const { name } of MIGRATIONS) {
      const timestamp = timestampOf(name);
      expect({ name, timestamp }).toEqual({ name, timestamp: expect.stringMatching(/^\d{14}$/) });
      byTimestamp.set(timestamp!, [...(byTimestamp.get(timestamp!) ?? []), name]);
    }
    const shared = [...byTimestamp.values()]
      .filter((names) => names.length > 1)
      .flat()
      .filter((name) => !SHARED_BEFORE_THE_RULE.has(name));
    expect(shared).toEqual([]);
  });
});
