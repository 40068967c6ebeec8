import { MikroORM } from '@mikro-orm/postgresql';
import { runInOrganizationSession } from '../../src/core/db-session.js';
import { Environment } from '../../src/core/scope.js';
import { ormConfig } from '../../src/db/orm.js';
import { createTestDatabase } from '../helpers/test-database.js';

// A reservation whose settings statement fails (here: a role that does not exist) must not keep the
// connection: Kysely does not release it, core/db-session.ts does. With a pool of two, five failed
// reservations followed by a working query prove nothing leaked.
let orm: MikroORM;

beforeAll(async () => {
  const url = await createTestDatabase();
  orm = await MikroORM.init(
    ormConfig({ databaseUrl: url, poolMax: 2, appRole: 'no_such_role_for_this_test' }),
  );
});
afterAll(() => orm?.close(true));

it('gives the connection back to the pool when the session settings cannot be applied', async () => {
  const scope = { organizationId: '00000000-0000-4000-8000-000000000001', environment: Environment.SANDBOX };
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await expect(
      runInOrganizationSession(scope, () => orm.em.fork().getConnection().execute('select 1 as one')),
    ).rejects.toThrow(/no_such_role_for_this_test/);
  }
  // Outside a session the service role needs no role change: this works only if both connections came back.
  const rows = await orm.em.fork().getConnection().execute<{ one: number }[]>('select 1 as one');
  expect(rows).toEqual([{ one: 1 }]);
}, 20_000);
