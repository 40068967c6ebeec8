import { CloudError } from '../cloud-error.js';
import { MICROSOFT365_CAPABILITIES } from './graph-capabilities.js';

const PROVIDER = 'microsoft365';

/**
 * A call that fails with CloudError Unsupported naming the capability, with the reason the capability table
 * gives, awaited or iterated alike: for the methods of an area partly on Graph (graph-areas.ts'
 * unsupportedArea fails whole areas; the area files cannot import it, graph-areas imports them). The
 * rejection is marked handled: a caller that iterates never awaits it.
 */
export function unsupportedCall(capability: string): Promise<never> & AsyncIterable<never> {
  const reason = MICROSOFT365_CAPABILITIES.find(
    (row) => row.capability === capability && !row.available,
  )?.reason;
  // A capability the table does not list as unavailable is a programming error, not a cloud's answer.
  if (!reason)
    throw new Error(`"${capability}" is not an unavailable capability of MICROSOFT365_CAPABILITIES`);
  const error = new CloudError(
    'Unsupported',
    `${reason} (capability "${capability}", provider ${PROVIDER})`,
    {
      provider: PROVIDER,
      capability,
    },
  );
  const rejected = Promise.reject(error);
  rejected.catch(() => undefined);
  return Object.assign(rejected, {
    [Symbol.asyncIterator]: async function* (): AsyncGenerator<never> {
      throw error;
    },
  });
}
