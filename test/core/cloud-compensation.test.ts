import { undoInCloudOnFailure } from '../../src/core/cloud-compensation.js';

/** An undo that counts its calls (and fails when told to). */
function undoSpy(fails = false): { undo: () => Promise<void>; calls: () => number } {
  let calls = 0;
  return {
    undo: async () => {
      calls += 1;
      if (fails) throw new Error('cloud unreachable');
    },
    calls: () => calls,
  };
}

/** The one compensation of a cloud call (src/core/cloud-compensation.ts), used by users, guests, contacts, licenses. */
describe('undoInCloudOnFailure', () => {
  it('returns what the write returns and leaves the cloud change alone', async () => {
    const { undo, calls } = undoSpy();
    await expect(undoInCloudOnFailure(undo, async () => 'written')).resolves.toBe('written');
    expect(calls()).toBe(0);
  });

  it('undoes the cloud change when the write fails and rethrows the write error', async () => {
    const { undo, calls } = undoSpy();
    const conflict = new Error('UPN taken meanwhile');
    await expect(undoInCloudOnFailure(undo, () => Promise.reject(conflict))).rejects.toBe(conflict);
    expect(calls()).toBe(1);
  });

  it('still rethrows the write error when the undo fails too (a sync reconciles the cloud)', async () => {
    const conflict = new Error('seat gone');
    const { undo, calls } = undoSpy(true);
    await expect(undoInCloudOnFailure(undo, () => Promise.reject(conflict))).rejects.toBe(conflict);
    expect(calls()).toBe(1);
  });
});
