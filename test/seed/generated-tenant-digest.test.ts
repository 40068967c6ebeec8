import { createHash } from 'node:crypto';
import { securityObjectsOf } from '../../src/cloud/simulated/security.simulated.js';
import {
  generateDirectory,
  generateSignInBatch,
} from '../../src/cloud/simulated/simulated-cloud.generator.js';
import { generateRestrictedSenders } from '../../src/cloud/simulated/simulated-restricted-senders.js';
import { generateSyncedContacts } from '../../src/cloud/simulated/simulated-contacts.generator.js';
import { enrollmentObjectsOf } from '../../src/cloud/simulated/simulated-device-management.js';
import { generateDriveItems } from '../../src/cloud/simulated/simulated-drive-items.js';
import { DEMO_AVAILABLE_TENANT, DEMO_TENANTS } from '../../src/db/seeds/demo.js';

/**
 * The demo seed and the bench rely on a seed giving the same tenant on every run and after every refactor:
 * this pins a digest of everything generated for each demo tenant (directory, restricted senders, contacts,
 * security estate, enrollment attempts, later sign-in batches, a user's files). A change of generated data
 * that is meant must update the digest here, on purpose.
 */
const AT = new Date('2026-11-01T12:00:00Z');

async function generatedTenant(spec: (typeof DEMO_TENANTS)[number]): Promise<unknown> {
  const directory = await generateDirectory(spec, AT);
  const { users, seed } = directory;
  return {
    directory,
    restrictedSenders: generateRestrictedSenders(users, seed, AT),
    contacts: generateSyncedContacts(users, seed, AT),
    security: securityObjectsOf(users, seed, AT),
    enrollment: enrollmentObjectsOf(directory.tenant.externalId, users, AT),
    signInBatches: [
      await generateSignInBatch(users, seed, 1, AT),
      await generateSignInBatch(users, seed, 2, AT),
    ],
    driveItems: users.slice(0, 3).map((user) => generateDriveItems(user.externalId, AT)),
  };
}

const digestOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

const PINNED: Record<number, string> = {
  1001: 'e99f67a3e4361ba34befa93c6c85a6754aa3443cdc145467144fafbea93d5950',
  1002: '02ac727aeddbcb0251cc171178c312bffb41d3a20dd180cddf5008fb392121ad',
  1003: '597e39de97df0a0cc2a9994b277c4da39305254764ec9a591ced80df38b5f16c',
  1004: 'b12da443b597243e5dbc62d74d6cdca76bd48b5d71ef141e27d12c8165354bae',
  1005: 'f3d1629cd6c0d27b2f717afce1204add1147dc0b45aa01f73bf37758c6527586',
  1006: 'a1afe1cc917924be90d2efd0ad5f039ca48dceb9be578527fe79ffa54ae997c8',
  1007: '604d3a2a2934ed8b3fa815c350251767c61de35b46bdb5ebb1e23b302c116909',
};

describe('a generated tenant', () => {
  it.each([...DEMO_TENANTS, DEMO_AVAILABLE_TENANT].map((spec) => [spec.seed, spec] as const))(
    'is byte-identical for the demo seed %d',
    async (seed, spec) => {
      expect(digestOf(await generatedTenant(spec))).toBe(PINNED[seed]);
    },
  );
});
