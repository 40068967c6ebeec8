import 'reflect-metadata';
import { findLeanIn } from '../../src/core/lean-read.js';
import { SecureScoreSnapshot } from '../../src/secure-score/secure-score-snapshot.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/tenants.js';
import { startSuite } from '../helpers/suite.js';
import type { TestApp } from '../helpers/test-app.js';

let app: TestApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await startSuite()));
afterAll(() => app.stop());

/** Lean views (src/core/lean-read.ts) hold the same values as MikroORM's entities, column type by column type. */
describe('lean views', () => {
  it('keep a date column as its day and a timestamptz as the instant', async () => {
    const tenant = await createTenant(app, org.scope);
    const em = app.orm.em.fork();
    em.create(SecureScoreSnapshot, {
      ...org.scope,
      tenantId: tenant.id,
      day: '2026-02-28',
      score: 12,
      maxScore: 40,
      recordedAt: new Date('2026-02-28T23:59:59.125Z'),
    });
    await em.flush();

    const [lean] = await findLeanIn({ em: em.fork(), scope: org.scope }, SecureScoreSnapshot, 'tenantId', [
      tenant.id,
    ]);
    const [entity] = await em.fork().find(SecureScoreSnapshot, { tenantId: tenant.id }, { filters: false });
    expect(lean.day).toBe('2026-02-28');
    expect(lean.day).toBe(entity.day);
    expect(lean.recordedAt).toEqual(new Date('2026-02-28T23:59:59.125Z'));
    expect(lean.recordedAt).toEqual(entity.recordedAt);
    expect({ score: lean.score, maxScore: lean.maxScore }).toEqual({ score: 12, maxScore: 40 });
  });
});
