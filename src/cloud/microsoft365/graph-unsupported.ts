import type { CloudError } from '../cloud-error.js';
import { unsupportedError } from './graph-capabilities.js';

/**
 * A call that fails with `error` however it is used: awaited (a Promise-returning method) or iterated (a
 * method returning pages, CloudPages). Its rejection is marked handled, since a caller that iterates never
 * awaits it.
 */
function failingCall(error: CloudError): Promise<never> & AsyncIterable<never> {
  const rejected = Promise.reject(error);
  rejected.catch(() => undefined);
  return Object.assign(rejected, {
    [Symbol.asyncIterator]: async function* (): AsyncGenerator<never> {
      throw error;
    },
  });
}

/**
 * A call that fails with CloudError Unsupported naming the capability, with the reason the capability table
 * gives (graph-capabilities.ts), awaited or iterated alike: for the methods of an area partly on Graph, and
 * for whole areas (graph-areas.ts' unsupportedArea).
 */
export function unsupportedCall(capability: string): Promise<never> & AsyncIterable<never> {
  return failingCall(unsupportedError(capability));
}
