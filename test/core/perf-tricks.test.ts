import { readFileSync } from 'node:fs';
import {
  coerceInputValue,
  GraphQLInputObjectType,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLInputType,
} from 'graphql';
import { Kysely, PostgresDialect, PostgresDriver, type PostgresPool } from 'kysely';
import { executeStatement } from '../../src/core/perf/kysely-named-statement.js';
import { fieldOfCoercionMessage } from '../../src/core/perf/graphql-coercion-messages.js';
import { releaseReservedConnection } from '../../src/core/perf/kysely-release-connection.js';
import {
  assertPerfTrickVersions,
  installedVersion,
  PERF_TRICKS,
  perfTrickVersionProblems,
  type PerfTrick,
} from '../../src/core/perf/versions.js';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};
const writtenFor = (library: string) => PERF_TRICKS.find((trick) => trick.library === library)!.version;

/** The tricks on libraries' internals (src/core/perf) and the start-up check of their versions. */
describe('library versions of the tricks in src/core/perf', () => {
  it('are the installed ones: the start-up check passes', () => {
    expect(perfTrickVersionProblems()).toEqual([]);
    expect(() => assertPerfTrickVersions()).not.toThrow();
  });

  it('are the versions package.json pins, and each trick’s file names its own', () => {
    for (const trick of PERF_TRICKS) {
      expect({ library: trick.library, version: manifest.dependencies[trick.library] }).toEqual({
        library: trick.library,
        version: trick.version,
      });
      const source = readFileSync(new URL(`../../src/core/perf/${trick.file}`, import.meta.url), 'utf8');
      expect(source).toContain(`Written against ${trick.library} ${trick.version}`);
    }
  });

  it('reads the version a package declares, also as another package loads it', () => {
    expect(installedVersion('graphql')).toBe(writtenFor('graphql'));
    expect(installedVersion('kysely', '@mikro-orm/postgresql')).toBe(writtenFor('kysely'));
    expect(installedVersion('no-such-package-for-perf-tricks')).toBeNull();
    expect(installedVersion('kysely', 'no-such-package-for-perf-tricks')).toBeNull();
  });

  it('stops start-up naming the trick and the library when a version differs', () => {
    const bumped = (library: string) => (library === 'kysely' ? '0.30.0' : writtenFor(library));
    let message = '';
    try {
      assertPerfTrickVersions(PERF_TRICKS, bumped);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      'kysely (as loaded by @mikro-orm/postgresql) is 0.30.0, but src/core/perf/kysely-release-connection.ts',
    );
    expect(message).toContain('reads its internals as of 0.29.6');
    expect(message).toContain('test/rls/session-settings-failure.test.ts');
    expect(message).toContain('src/core/perf/kysely-named-statement.ts');
    // Only the tricks concerned (the two on Kysely).
    expect(message.split('\n- ')).toHaveLength(3);
  });

  it('names a library that is not installed', () => {
    const missing: PerfTrick = {
      name: 'a trick on a library that is gone',
      file: 'gone.ts',
      library: 'no-such-package-for-perf-tricks',
      version: '1.0.0',
      verifiedBy: 'nothing',
    };
    expect(perfTrickVersionProblems([missing])).toEqual([
      expect.stringMatching(
        /^no-such-package-for-perf-tricks is not installed, but src\/core\/perf\/gone\.ts/,
      ),
    ]);
  });
});

describe('the tricks hold on the installed libraries', () => {
  it('Kysely: the private release method gives a PostgreSQL connection’s client back to its pool', async () => {
    let released = 0;
    const client = { query: async () => ({ rows: [] }), release: () => void released++ };
    const pool = { connect: async () => client, end: async () => undefined } as unknown as PostgresPool;
    const driver = new PostgresDriver({ pool });
    await driver.init();
    const connection = await driver.acquireConnection();
    releaseReservedConnection(connection);
    expect(released).toBe(1);
  });

  it('Kysely: a compiled query’s `sql` reaches pg’s client.query as given (a named statement’s config)', async () => {
    const calls: unknown[][] = [];
    const client = {
      query: async (...args: unknown[]) => (calls.push(args), { rows: [{ one: 1 }], command: 'SELECT' }),
      release: () => undefined,
    };
    const pool = { connect: async () => client, end: async () => undefined } as unknown as PostgresPool;
    const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    const result = await executeStatement(kysely, { name: 'lean_x', text: 'select $1::int as one' }, [1]);
    expect(result.rows).toEqual([{ one: 1 }]);
    expect(calls).toEqual([[{ name: 'lean_x', text: 'select $1::int as one' }, [1]]]);
    await kysely.destroy();
  });

  it('graphql-js: the coercion messages of a missing and an unknown input field name the field', () => {
    const input = new GraphQLInputObjectType({
      name: 'PerfTrickInput',
      fields: { password: { type: new GraphQLNonNull(GraphQLString) }, name: { type: GraphQLString } },
    });
    const messages: string[] = [];
    coerceInputValue(
      { name: 'x', favouriteColour: 'blue' },
      input as GraphQLInputType,
      (_path, _value, error) => messages.push(error.message),
    );
    expect(messages.map(fieldOfCoercionMessage)).toEqual(
      expect.arrayContaining([
        { field: 'password', problem: 'is required' },
        { field: 'favouriteColour', problem: 'is not a known field' },
      ]),
    );
    expect(messages).toHaveLength(2);
    expect(fieldOfCoercionMessage('Expected type "Int"')).toBeNull();
  });
});
