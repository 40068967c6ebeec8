export default async function globalTeardown() {
  // In band, the tests ran in this process: its shared server (test/environment.mjs) closes before the database.
  try {
    await globalThis[Symbol.for('msp-tests.stop-shared-server')]?.();
  } finally {
    await globalThis.__stopTestDatabase?.();
  }
}
