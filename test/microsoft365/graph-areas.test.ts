import { isCloudError } from '../../src/cloud/cloud-error.js';
import { unsupportedArea } from '../../src/cloud/microsoft365/graph-areas.js';
import type { CloudContacts } from '../../src/cloud/tenant-cloud.js';
import { toAppError } from '../../src/core/errors.js';

describe('an area Microsoft Graph has no API for', () => {
  const contacts = unsupportedArea<CloudContacts>('mailContacts', 'Microsoft Graph v1.0 has no API for it');

  it('fails an awaited call with CloudError Unsupported naming the capability', async () => {
    const failure: unknown = await contacts.deleteContact('c-1').catch((error: unknown) => error);
    expect(isCloudError(failure, 'Unsupported')).toBe(true);
    expect(failure).toMatchObject({ capability: 'mailContacts', provider: 'microsoft365' });
  });

  it('fails an iterated list the same way, before any page', async () => {
    const pages: unknown[] = [];
    const failure: unknown = await (async () => {
      for await (const page of contacts.listContacts()) pages.push(page);
    })().catch((error: unknown) => error);
    expect(pages).toEqual([]);
    expect(isCloudError(failure, 'Unsupported')).toBe(true);
  });

  it('answers 501 NOT_SUPPORTED with the capability and provider in a request', async () => {
    const failure: unknown = await contacts.createContacts([]).catch((error: unknown) => error);
    const appError = toAppError(failure);
    expect(appError.httpStatus).toBe(501);
    expect(appError.code).toBe('NOT_SUPPORTED');
    expect(appError.details).toEqual({ capability: 'mailContacts', provider: 'microsoft365' });
    expect(appError.message).toContain('mailContacts');
  });
});
