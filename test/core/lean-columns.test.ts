import { createTenant, type OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
afterAll(() => app.stop());

/** Lean views (src/core/lean-read.ts) hold the same values as MikroORM's entities, column type by column type. */
describe('lean views', () => {
  it('keep a date column as its day and a timestamptz as the instant', async () => {
    const tenant = await createTenant(app, org.scope);
    // Written through the server's ORM, then read back as a lean view and as the entity (the server's classes).
    const { lean, entity } = await onServer(app, 'snapshotLeanAndEntity', org.scope, tenant.id, {
      day: '2026-02-28',
      score: 12,
      maxScore: 40,
      recordedAt: new Date('2026-02-28T23:59:59.125Z'),
    });
    expect(lean.day).toBe('2026-02-28');
    expect(lean.day).toBe(entity.day);
    expect(lean.recordedAt).toEqual(new Date('2026-02-28T23:59:59.125Z'));
    expect(lean.recordedAt).toEqual(entity.recordedAt);
    expect({ score: lean.score, maxScore: lean.maxScore }).toEqual({ score: 12, maxScore: 40 });
  });
});
