import { createOrganizationWithKeys, createTenant } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedApp, type SharedApp } from '../helpers/shared-suite.js';

// The server's ORM reads the tenants (onServer `findTenantIds`): the file's own copies of the entity classes are
// not the ones that ORM knows.
let app: SharedApp;
beforeAll(async () => {
  app = await sharedApp();
});
afterAll(() => app.stop());

describe('the scope filter', () => {
  it('refuses to read a scoped entity when no scope was given, instead of reading every organization', async () => {
    await expect(onServer(app, 'findTenantIds')).rejects.toThrow(/scope/);
  });

  it('confines reads to the organization and environment it was given', async () => {
    const a = await createOrganizationWithKeys(app);
    const b = await createOrganizationWithKeys(app);
    const mine = await createTenant(app, a.scope);
    await createTenant(app, b.scope);
    await createTenant(app, a.liveScope);
    expect(await onServer(app, 'findTenantIds', a.scope)).toEqual([mine.id]);
  });
});
