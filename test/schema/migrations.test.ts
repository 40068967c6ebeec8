import { openOrm } from '../../src/db/orm.js';
import { createTestDatabase } from '../helpers/test-database.js';

describe('migrations', () => {
  it('build exactly the schema the entities describe (write a migration with `npm run migration:create` otherwise)', async () => {
    const orm = await openOrm({ databaseUrl: await createTestDatabase() });
    try {
      const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false });
      // rate_limits belongs to rate-limiter-flexible and graphile_worker to the job queue: not entities.
      const statements = diff
        .split('\n')
        .filter((line) => line.trim() !== '' && !/rate_limits|graphile_worker/.test(line));
      expect(statements).toEqual([]);
    } finally {
      await orm.close();
    }
  });
});
