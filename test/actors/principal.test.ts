import { getNamedType, GraphQLObjectType } from 'graphql';
import { buildAppSchema } from '../../src/schema.js';
import { parsePrincipal, systemActor } from '../../src/actors/principal.js';

describe('stored principal strings', () => {
  it.each([
    [
      'api_key:5c4d1f0e-8f1a-4c47-9a0e-0d7c6a1b2c3d',
      { kind: 'api_key', id: '5c4d1f0e-8f1a-4c47-9a0e-0d7c6a1b2c3d' },
    ],
    [
      'access_token:0b0e6c1e-2c6f-4a8e-8f5d-7a9b1c2d3e4f',
      { kind: 'access_token', id: '0b0e6c1e-2c6f-4a8e-8f5d-7a9b1c2d3e4f' },
    ],
    [
      'member:0b0e6c1e-2c6f-4a8e-8f5d-7a9b1c2d3e4f:5c4d1f0e-8f1a-4c47-9a0e-0d7c6a1b2c3d',
      {
        kind: 'member',
        id: '0b0e6c1e-2c6f-4a8e-8f5d-7a9b1c2d3e4f',
        clientId: '5c4d1f0e-8f1a-4c47-9a0e-0d7c6a1b2c3d',
      },
    ],
    [
      'member:0b0e6c1e-2c6f-4a8e-8f5d-7a9b1c2d3e4f:',
      { kind: 'member', id: '0b0e6c1e-2c6f-4a8e-8f5d-7a9b1c2d3e4f', clientId: null },
    ],
    ['member:not-a-uuid:', { kind: 'unknown' }],
    ['member:0b0e6c1e-2c6f-4a8e-8f5d-7a9b1c2d3e4f:nope', { kind: 'unknown' }],
    ['system:tenant-sync', { kind: 'system', job: 'tenant-sync' }],
    ['admin@contoso.onmicrosoft.com', { kind: 'upstream', name: 'admin@contoso.onmicrosoft.com' }],
    ['api_key:not-a-uuid', { kind: 'unknown' }],
    ['access_token:', { kind: 'unknown' }],
    ['system:', { kind: 'unknown' }],
    ['   ', { kind: 'unknown' }],
  ])('%s', (principal, expected) => {
    expect(parsePrincipal(principal)).toEqual(expected);
  });

  it('names the jobs readably, and an unlisted one after its id', () => {
    expect(systemActor('tenant-sync')).toEqual({
      type: 'SYSTEM',
      id: 'tenant-sync',
      name: 'Tenant sync',
      email: null,
      oauthClientName: null,
    });
    expect(systemActor('deleted-user-purge').name).toBe('Deleted-user purge');
    expect(systemActor('nightly-report').name).toBe('Nightly report');
  });
});

describe('the schema', () => {
  it('types every audit field as Actor, never as the stored string', async () => {
    const schema = await buildAppSchema();
    const audit: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!(type instanceof GraphQLObjectType) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        // decidedBy names a device policy, not a principal.
        if (!/(By|^author)$/.test(field.name) || field.name === 'decidedBy') continue;
        audit.push(`${type.name}.${field.name}: ${String(getNamedType(field.type))}`);
      }
    }
    expect(audit.filter((field) => !field.endsWith(': Actor'))).toEqual([]);
    expect(audit.length).toBeGreaterThanOrEqual(15);
  });
});
