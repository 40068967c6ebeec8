import { Tenant } from '../../src/tenants/tenant.entity.js';
import { SCOPE_FILTER } from '../../src/core/scope.js';
import { createOrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/tenants.js';
import { TestApp } from '../helpers/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await TestApp.start();
});
afterAll(() => app.stop());

describe('the scope filter', () => {
  it('refuses to read a scoped entity when no scope was given, instead of reading every organization', async () => {
    await expect(app.orm.em.fork().find(Tenant, {})).rejects.toThrow(/scope/);
  });

  it('confines reads to the organization and environment it was given', async () => {
    const a = await createOrganizationWithKeys(app);
    const b = await createOrganizationWithKeys(app);
    const mine = await createTenant(app, a.scope);
    await createTenant(app, b.scope);
    await createTenant(app, a.liveScope);
    const em = app.orm.em.fork();
    em.setFilterParams(SCOPE_FILTER, a.scope);
    expect((await em.find(Tenant, {})).map((tenant) => tenant.id)).toEqual([mine.id]);
  });
});
