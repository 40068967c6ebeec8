export default async function globalTeardown() {
  // In band, the tests ran in this process: its shared server (test/environment.mjs) closes before the database.
  await globalThis[Symbol.for('msp-tests.stop-shared-server')]?.();
  await globalThis.__stopTestDatabase?.();
}
