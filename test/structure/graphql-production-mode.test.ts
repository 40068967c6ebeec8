import { isObjectType } from 'graphql';

/**
 * The test files' graphql-js checks types as the production server's does (jest.config.ts maps its instanceOf to
 * test/graphql-instance-of.cjs): a failed check is a plain `false`, without the development build's search for a
 * second copy of graphql, which throws for a look-alike from "another module or realm" and costs CPU on every
 * failed check.
 */
it('loads graphql-js with its production instanceOf', () => {
  const lookalike = { [Symbol.toStringTag]: 'GraphQLObjectType', name: 'Lookalike' };
  expect(isObjectType(lookalike)).toBe(false);
});
