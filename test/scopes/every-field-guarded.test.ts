import { randomUUID } from 'node:crypto';
import {
  buildSchema,
  getNamedType,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  isCompositeType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { Environment } from '../../src/core/environment.js';
import { Permission } from '../../src/core/permissions.js';
import {
  readPermissionOfKind,
  SUBSCRIBABLE_EVENT_KINDS,
  subscriptionFieldName,
} from '../../src/subscriptions/event-kinds.js';
import {
  createMember,
  createOAuthClient,
  createOrganizationWithKeys,
  issueAccessToken,
} from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import type { ViewerData } from '../helpers/server-side-documents.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { bearer, connect, type Connection } from '../subscriptions/subscription-kit.js';

/**
 * On the worker's shared server: the fields are those of the schema it serves (onServer `servedSchemaSdl`), and
 * each document runs on that schema as a viewer the test describes (onServer `executeAsViewer`: graphql-js's
 * execute with a request context made as a request's is), so that the file neither starts an app nor evaluates
 * the app's modules.
 */
let app: SharedApp;
let schema: GraphQLSchema;

beforeAll(async () => {
  ({ app } = await sharedSuite());
  schema = buildSchema(await onServer(app, 'servedSchemaSdl'));
});
afterAll(() => app.stop());

/** A sandbox viewer of an organization that does not exist, holding no permission at all. */
const nobody = (): ViewerData => ({
  organizationId: randomUUID(),
  organizationSlug: 'nobody',
  environment: Environment.SANDBOX,
  rateLimitPerMinute: 60,
  credentialKind: 'access_token',
  credentialId: randomUUID(),
  permissions: [],
});

/** A value of the right type for every required argument, so execution reaches the resolver's guard. */
function sampleValue(type: GraphQLInputType): unknown {
  if (type instanceof GraphQLNonNull) return sampleValue(type.ofType);
  if (type instanceof GraphQLList) return [sampleValue(type.ofType)];
  if (type instanceof GraphQLEnumType) return type.getValues()[0].name; // variables carry enum names
  if (type instanceof GraphQLInputObjectType) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields()))
      if (field.type instanceof GraphQLNonNull) value[field.name] = sampleValue(field.type);
    return value;
  }
  const scalar = type as GraphQLScalarType;
  const samples: Record<string, unknown> = {
    UUID: randomUUID(),
    ID: randomUUID(),
    Int: 1,
    Float: 1,
    Boolean: true,
    DateTime: '2026-11-01T12:00:00Z',
    JSONObject: {},
  };
  return scalar.name in samples ? samples[scalar.name] : 'x';
}

function documentFor(
  operation: 'query' | 'mutation' | 'subscription',
  field: GraphQLField<unknown, unknown>,
) {
  const definitions = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`);
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`);
  const selection = isCompositeType(getNamedType(field.type)) ? '{ __typename }' : '';
  const variables = Object.fromEntries(
    field.args
      .filter((arg) => arg.type instanceof GraphQLNonNull)
      .map((arg) => [arg.name, sampleValue(arg.type)]),
  );
  const text = `${operation}${definitions.length ? `(${definitions.join(', ')})` : ''} { ${field.name}${
    args.length ? `(${args.join(', ')})` : ''
  } ${selection} }`;
  return { text, variables };
}

describe('every GraphQL query and mutation (and so every REST route) checks a permission', () => {
  it('refuses a credential that holds no permission at all, with FORBIDDEN naming what is needed', async () => {
    const viewer = nobody();
    const unguarded: string[] = [];
    const roots = [
      ['query', schema.getQueryType()],
      ['mutation', schema.getMutationType()],
    ] as const;
    let checked = 0;
    for (const [operation, root] of roots) {
      for (const field of Object.values(root?.getFields() ?? {})) {
        const { text, variables } = documentFor(operation, field);
        const result = await onServer(app, 'executeAsViewer', text, variables, viewer);
        const error = result.errors[0];
        checked++;
        if (error?.extensions?.code !== 'FORBIDDEN' || !error.extensions.details?.required)
          unguarded.push(`${operation} ${field.name}: ${error?.message ?? 'no error'}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(unguarded).toEqual([]);
  });
});

describe('the permission is checked once per request', () => {
  const run = (preAuthorized?: ReadonlySet<string>) =>
    onServer(
      app,
      'executeAsViewer',
      '{ tenants { items { id } } }',
      {},
      nobody(),
      preAuthorized && [...preAuthorized],
    );

  it('by the pre-check (REST handler, GraphQL plugin) alone: a field it cleared does not check again', async () => {
    // The viewer holds nothing: the field runs only because its check is the pre-check's, already passed.
    const cleared = await run(new Set(['tenants']));
    expect(cleared.errors).toEqual([]);
    expect(cleared.data).toEqual({ tenants: { items: [] } });
  });

  it('by the field itself wherever no pre-check cleared it', async () => {
    for (const preAuthorized of [undefined, new Set<string>(), new Set(['tenant'])]) {
      const result = await run(preAuthorized);
      expect(result.errors[0]?.thrownCode).toBe('FORBIDDEN');
    }
  });
});

describe('every GraphQL subscription checks the read permission of what it shows', () => {
  const READS = [Permission.READ_TENANTS, Permission.READ_USERS, Permission.READ_LICENSES];
  const connections: Connection[] = [];
  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
  });

  /** What a field needs: `events` any read permission, a per-kind field the read permission of its kind. */
  function needs(field: string): Permission[] {
    if (field === 'events') return READS;
    const kind = SUBSCRIBABLE_EVENT_KINDS.find((candidate) => subscriptionFieldName(candidate) === field);
    return kind ? [readPermissionOfKind(kind)] : [];
  }

  /** Subscribes to every Subscription root field over graphql-ws; the first message of each (null: none, still open). */
  async function subscribeToEverything(scopes: Permission[]) {
    const organization = await createOrganizationWithKeys(app);
    const client = await createOAuthClient(app, organization.scope);
    const member = await createMember(app, organization.organization.id);
    const connection = connect(app.baseUrl, bearer(await issueAccessToken(app, client, member, scopes)));
    connections.push(connection);
    await connection.acknowledged();
    const fields = Object.values(schema.getSubscriptionType()?.getFields() ?? {});
    const subscriptions = fields.map((field) => {
      const { text, variables } = documentFor('subscription', field);
      return connection.subscribe(field.name, text, variables);
    });
    // Refusals come at once (well under a second on an idle machine, a few seconds on a loaded one); a
    // subscription that is allowed stays open without a message, so it waits out the whole bound.
    const messages = await Promise.all(subscriptions.map((subscription) => subscription.nextMessage(3_000)));
    return fields.map((field, index) => ({ field: field.name, message: messages[index] }));
  }

  const refusal = (message: unknown): string | null => {
    const error = (
      message as { errors?: Array<{ extensions?: { code?: string; details?: unknown } }> } | null
    )?.errors?.[0];
    return error ? `${error.extensions?.code} ${JSON.stringify(error.extensions?.details)}` : null;
  };

  it('refuses every field to a token without a read permission (msp:read alone), naming it', async () => {
    const outcomes = await subscribeToEverything([Permission.MSP_READ]);
    expect(outcomes.length).toBeGreaterThan(10);
    const unguarded = outcomes
      .filter(
        ({ message }) => !refusal(message)?.startsWith('FORBIDDEN') || !refusal(message)?.includes('read:'),
      )
      .map(({ field, message }) => `${field}: ${JSON.stringify(message)}`);
    expect(unguarded).toEqual([]);
  });

  // Each family's subscriptions wait out the same 3 s bound: started together, the waits overlap.
  const outcomesOf = new Map<Permission, ReturnType<typeof subscribeToEverything>>();
  beforeAll(() => {
    for (const scope of READS) {
      const outcomes = subscribeToEverything([scope]);
      outcomes.catch(() => undefined); // awaited (and reported) by its own test
      outcomesOf.set(scope, outcomes);
    }
  });

  it.each(READS)('lets a %s token subscribe to exactly the fields of its family', async (scope) => {
    const outcomes = await outcomesOf.get(scope)!;
    const actual = Object.fromEntries(
      outcomes.map(({ field, message }) => [field, refusal(message)?.split(' ')[0] ?? 'open']),
    );
    const expected = Object.fromEntries(
      outcomes.map(({ field }) => [field, needs(field).includes(scope) ? 'open' : 'FORBIDDEN']),
    );
    expect(actual).toEqual(expected);
  });
});
