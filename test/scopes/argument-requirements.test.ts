import { randomUUID } from 'node:crypto';
import { Permission } from '../../src/core/permissions.js';
import { createMember, createOAuthClient, issueAccessToken } from '../factories/oauth.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { onServer } from '../helpers/on-server.js';
import type { RootFieldRequirements } from '../helpers/server-side-schema.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

/**
 * One way to require a permission: a row of the permission table on the field, and, where an argument makes
 * the action stricter (offboarding with `deleteUser`), that argument's row declared on the field as well, so
 * the GraphQL pre-check refuses before the input is coerced, as it does for the field's own requirement.
 * The schema's records are the server's (the schema it serves: onServer `rootFieldRequirements`,
 * `operationRequirements`), so the file does not build one of its own.
 */
let app: SharedApp;
let org: OrganizationWithKeys;
let rootFields: RootFieldRequirements[];

beforeAll(async () => {
  ({ app, org } = await sharedSuite());
  rootFields = await onServer(app, 'rootFieldRequirements');
});
afterAll(() => app.stop());

const OFFBOARD =
  'mutation($t: UUID!, $u: UUID!, $input: OffboardUserInput) { offboardUser(tenantId: $t, userId: $u, input: $input) { id } }';
const ids = () => ({ t: randomUUID(), u: randomUUID() });

async function offboardCode(credential: string, input: Record<string, unknown>, query = OFFBOARD) {
  const res = await app.graphql(credential, query, { ...ids(), input });
  const error = res.body.errors?.[0];
  return { status: res.status, code: error?.extensions.code, required: error?.extensions.details?.required };
}

describe('every requirement is a row of the permission table', () => {
  it('holds for every query and mutation, and for every argument-dependent requirement', () => {
    // `row`: the FEATURES row the requirement is (the same object), null when it is none.
    const offTable: string[] = [];
    for (const { field, requirement, stricter } of rootFields) {
      if (!requirement?.row) offTable.push(field);
      for (const { row } of stricter) if (!row) offTable.push(`${field} (argument)`);
    }
    expect(rootFields.length).toBeGreaterThan(100); // the schema's queries and mutations, not an empty list
    expect(offTable).toEqual([]);
  });
});

describe('offboardUser with deleteUser: a deletion, declared on the field', () => {
  it('records the stricter requirement of input.deleteUser in the schema', () => {
    const field = rootFields.find((root) => root.type === 'Mutation' && root.field === 'offboardUser');
    expect(field?.requirement?.requires).toEqual({ permission: 'write:users' });
    expect(field?.stricter.map(({ argument, requires }) => ({ argument, requires }))).toEqual([
      { argument: 'input.deleteUser', requires: { permission: 'write:users', destructive: true } },
    ]);
  });

  it('GraphQL: a Write key asking for deleteUser is refused before its input is coerced (403, not 400)', async () => {
    // convertMailboxToShared is not a Boolean: without the declared requirement this was a 400.
    expect(await offboardCode(org.keys.write, { deleteUser: true, convertMailboxToShared: 'yes' })).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      required: 'Admin',
    });
  });

  it('REST: a Write key asking for deleteUser is refused before its body is validated (403, not 400)', async () => {
    const { t, u } = ids();
    const offboard = (key: string, body: Record<string, unknown>) =>
      app.request('POST', `/api/user-management-identity/users/${u}/offboard`, {
        key,
        headers: { 'X-Tenant-Id': t },
        body,
      });
    const refused = await offboard(org.keys.write, { deleteUser: true, convertMailboxToShared: 'yes' });
    expect({ status: refused.status, body: refused.body }).toMatchObject({
      status: 403,
      body: { success: false, error: { code: 'FORBIDDEN' } },
    });
    // Without deleteUser the same key reaches the input check; an Admin key passes the permission with it.
    expect((await offboard(org.keys.write, { convertMailboxToShared: 'yes' })).status).toBe(400);
    expect((await offboard(org.keys.admin, { deleteUser: true, convertMailboxToShared: 'yes' })).status).toBe(
      400,
    );
  });

  it('GraphQL: the pre-check reads deleteUser written in the document and in a variable default too', async () => {
    const literal =
      'mutation($t: UUID!, $u: UUID!) { offboardUser(tenantId: $t, userId: $u, input: { deleteUser: true }) { id } }';
    const res = await app.graphql(org.keys.write, literal, ids());
    expect({ status: res.status, code: res.body.errors?.[0].extensions.code }).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    const defaulted =
      'mutation($t: UUID!, $u: UUID!, $input: OffboardUserInput = { deleteUser: true }) { offboardUser(tenantId: $t, userId: $u, input: $input) { id } }';
    const viaDefault = await app.graphql(org.keys.write, defaulted, ids());
    expect(viaDefault.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('GraphQL: without deleteUser (or with false) a Write key gets past the permission to its input', async () => {
    for (const input of [
      { convertMailboxToShared: 'yes' },
      { deleteUser: false, convertMailboxToShared: 'yes' },
    ]) {
      const outcome = await offboardCode(org.keys.write, input);
      expect({ input, status: outcome.status }).toEqual({ input, status: 400 });
      expect(outcome.code).not.toBe('FORBIDDEN');
    }
  });

  it('GraphQL: an Admin key and a write:users access token may ask for deleteUser (404: no such tenant)', async () => {
    const client = await createOAuthClient(app, org.scope);
    const member = await createMember(app, org.organization.id);
    const token = await issueAccessToken(app, client, member, [Permission.WRITE_USERS]);
    for (const credential of [org.keys.admin, token]) {
      const outcome = await offboardCode(credential, { deleteUser: true });
      expect(outcome.code).toBe('NOT_FOUND');
    }
    const reader = await issueAccessToken(app, client, member, [Permission.READ_USERS]);
    expect(await offboardCode(reader, { deleteUser: true })).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      required: 'write:users',
    });
  });

  it('operationRequirements: the argument counts once its value is known, not before', async () => {
    const requirements = (variables?: Record<string, unknown>) =>
      onServer(app, 'operationRequirements', OFFBOARD, variables);
    // A REST route is compiled before any request: its input is a variable, so only the field's own row.
    expect(await requirements()).toEqual([{ permission: 'write:users' }]);
    expect(await requirements({ input: { deleteUser: false } })).toEqual([{ permission: 'write:users' }]);
    expect(await requirements({ input: { deleteUser: true } })).toEqual([
      { permission: 'write:users' },
      { permission: 'write:users', destructive: true },
    ]);
  });
});
