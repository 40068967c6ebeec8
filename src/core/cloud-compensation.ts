/**
 * The one way a service compensates a cloud call (docs/decisions.md): the cloud is changed first, outside any
 * transaction, then `write` records our rows; when `write` fails, `undo` reverts the cloud change and the
 * original error is rethrown, because that is what the client needs. An undo that fails too is left to the next
 * sync to reconcile (best effort, never a second error).
 */
export async function undoInCloudOnFailure<T>(
  undo: () => Promise<unknown>,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    await undo().catch(() => undefined);
    throw error;
  }
}
