import type { CloudBackupWorkload } from '../../src/cloud/backup.provider.js';
import {
  leafCount,
  snapshotItemCount,
  snapshotTree,
} from '../../src/cloud/simulated/simulated-backup.tree.js';

/**
 * The simulated catalog counts a snapshot's items without building its tree (snapshotItemCount); the count
 * must be the tree's, for every workload and over the slots of a retention window and more.
 */
it('a snapshot’s item count is the number of items its tree holds', () => {
  const workloads: CloudBackupWorkload[] = [
    'Mailbox',
    'Personal file storage',
    'Site collaboration',
    'Team chat',
  ];
  let compared = 0;
  for (const workload of workloads)
    for (const resourceExternalId of ['mbx-a1', 'drv-b2', 'site-intranet', 'team-all-company', 'x'])
      for (let slot = 120_000; slot < 120_400; slot += 7) {
        const resource = { resourceExternalId, workload, name: 'owner@example.com' };
        expect(snapshotItemCount(resource, slot)).toBe(leafCount(snapshotTree(resource, slot)));
        compared++;
      }
  expect(compared).toBeGreaterThan(1000);
});
