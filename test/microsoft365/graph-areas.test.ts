import type { CloudRestorePlan } from '../../src/cloud/backup.provider.js';
import { readFileSync } from 'node:fs';
import { isCloudError } from '../../src/cloud/cloud-error.js';
import { graphTenantAreas, unsupportedArea } from '../../src/cloud/microsoft365/graph-areas.js';
import {
  MICROSOFT365_APPLICATION_PERMISSIONS,
  MICROSOFT365_CAPABILITIES,
} from '../../src/cloud/microsoft365/graph-capabilities.js';
import type { GraphTenantClient } from '../../src/cloud/microsoft365/graph-client.js';
import type { CloudContacts } from '../../src/cloud/tenant-cloud.js';
import { toAppError } from '../../src/core/errors.js';
import { LIST_BOUNDS } from '../../src/http/list-bounds.js';

async function failureOf(call: () => unknown): Promise<unknown> {
  const result = call();
  if (result && typeof (result as Promise<unknown>).then === 'function')
    return (result as Promise<unknown>).then(
      () => undefined,
      (error: unknown) => error,
    );
  try {
    for await (const page of result as AsyncIterable<unknown>) void page;
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('an area Microsoft Graph has no API for', () => {
  const contacts = unsupportedArea<CloudContacts>('mailContacts');

  it('fails an awaited call with CloudError Unsupported naming the capability and the table’s reason', async () => {
    const failure: unknown = await contacts.deleteContact('c-1').catch((error: unknown) => error);
    expect(isCloudError(failure, 'Unsupported')).toBe(true);
    expect(failure).toMatchObject({ capability: 'mailContacts', provider: 'microsoft365' });
    expect((failure as Error).message).toContain('Exchange Online PowerShell');
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

describe('the tenant areas and the capability table agree', () => {
  // No Graph call is made by an unsupported method: a client that fails every call proves it.
  const graph = new Proxy({} as GraphTenantClient, {
    get: () => () => {
      throw new Error('an unsupported area called Graph');
    },
  });
  const areas = graphTenantAreas(graph);
  const restorePlan = (fields: Partial<CloudRestorePlan>): CloudRestorePlan => ({
    snapshotExternalId: 's',
    workload: 'Mailbox',
    targetKind: 'Original location',
    crossTenant: false,
    conflictPolicy: 'Skip',
    itemIds: null,
    ...fields,
  });
  const unsupportedCalls: Array<[string, () => unknown, string]> = [
    ['contacts.listContacts', () => areas.contacts.listContacts(), 'mailContacts'],
    ['exchange.unblockSender', () => areas.exchange.unblockSender('r'), 'restrictedSenders'],
    ['security.listDlpPolicies', () => areas.security.listDlpPolicies(), 'endpointDlp'],
    [
      'deviceManagement.listEnrollmentAttempts',
      () => areas.deviceManagement.listEnrollmentAttempts(null),
      'blockedEnrollments',
    ],
    ['backup.listBackupItems', () => areas.backup.listBackupItems('s', null, 0, 1), 'backupItemBrowsing'],
    [
      'backup.hasRestoreTarget',
      () => areas.backup.hasRestoreTarget('Mailbox', 'a@b.c'),
      'backupRestoreElsewhere',
    ],
    ['backup.checkRestore (Skip)', () => areas.backup.checkRestore(restorePlan({})), 'backupSkipConflicts'],
    [
      'backup.checkRestore (Team chat)',
      () => areas.backup.checkRestore(restorePlan({ workload: 'Team chat', conflictPolicy: 'Overwrite' })),
      'backupTeamChat',
    ],
    [
      'connectorSources.importConnectorData',
      () => areas.connectorSources.importConnectorData({} as never),
      'complianceConnectorSources',
    ],
    [
      'securityPosture.applySecurityControl',
      // A control Graph cannot apply (mfa-admin-roles and security defaults it can: graph-control-apply.ts).
      () => areas.securityPosture.applySecurityControl('c'),
      'securityControlApplyOther',
    ],
    [
      'securityPosture.applyInformationBarriers',
      () => areas.securityPosture.applyInformationBarriers({} as never),
      'informationBarriers',
    ],
    [
      'userManagement.convertMailboxToShared',
      () => areas.userManagement.convertMailboxToShared('u'),
      'sharedMailboxes',
    ],
    [
      'userManagement.addMailboxDelegate',
      () => areas.userManagement.addMailboxDelegate('u', 'd'),
      'mailboxDelegation',
    ],
    [
      'userManagement.listDriveItems',
      () => areas.userManagement.listDriveItems('u', { offset: 0, limit: 1 }),
      'deletedUserOneDrive',
    ],
  ];

  it.each(unsupportedCalls)(
    '%s answers Unsupported %s, listed as not available with its reason',
    async (_, call, capability) => {
      const failure = await failureOf(call);
      expect(failure).toMatchObject({ kind: 'Unsupported', capability });
      const listed = MICROSOFT365_CAPABILITIES.find((entry) => entry.capability === capability);
      expect(listed).toMatchObject({ available: false, permissions: [] });
      expect((failure as Error).message).toContain(listed!.reason!);
    },
  );

  it('lists every unavailable capability with a reason, each once, within the list bound', () => {
    const names = MICROSOFT365_CAPABILITIES.map((entry) => entry.capability);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of MICROSOFT365_CAPABILITIES) {
      if (entry.available) expect(entry.permissions.length).toBeGreaterThan(0);
      else expect(entry.reason).toEqual(expect.any(String));
    }
    const unavailable = MICROSOFT365_CAPABILITIES.filter((entry) => !entry.available).map(
      (e) => e.capability,
    );
    // mfaStatus: the directory's user writes (graph-user-records.ts) refuse a per-user MFA change.
    expect(new Set(unavailable)).toEqual(
      new Set([...unsupportedCalls.map(([, , capability]) => capability), 'mfaStatus']),
    );
    expect(names.length).toBeLessThanOrEqual(LIST_BOUNDS['CloudConnection.capabilities'] as number);
  });
});

describe('docs/microsoft365.md and the capability table agree', () => {
  const doc = readFileSync('docs/microsoft365.md', 'utf8');

  it('names every capability, and every application permission in its permission table', () => {
    for (const { capability } of MICROSOFT365_CAPABILITIES) expect(doc).toContain(capability);
    for (const permission of MICROSOFT365_APPLICATION_PERMISSIONS)
      expect(doc).toContain(`| \`${permission}\``);
  });
});
