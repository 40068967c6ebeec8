/**
 * src/core/perf/graphql-variable-check.ts: the per-operation check must accept exactly the variables graphql-js's
 * `getVariableValues` accepts (a refusal then gets graphql-js's own messages). Compared over the schema's operations
 * with required, defaulted, nullable, list, enum, scalar and input-object variables and many values for each.
 */
import { readFileSync } from 'node:fs';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import { VariableCheck } from '../../src/core/perf/graphql-variable-check.js';

const schema = buildSchema(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));

const operationOf = (text: string) =>
  parse(text).definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === 'OperationDefinition',
  )!;

const UUID = '6c1a4b1e-2f4e-4c71-9a0e-0b1e2f3a4b5c';
const VALUES: unknown[] = [
  UUID,
  UUID.toUpperCase(),
  'not-a-uuid',
  '',
  0,
  1,
  -1,
  2.5,
  2 ** 31,
  '5',
  true,
  false,
  null,
  [],
  [UUID],
  [UUID, 'x'],
  [null],
  {},
  { name: 'x' },
  { displayName: 'A', userPrincipalName: 'a@b.c' },
  'ACTIVE',
  'active',
  'LAST_NAME',
  '2026-01-01T00:00:00.000Z',
  'yesterday',
];

const OPERATIONS = [
  'query A($tenantId: UUID!, $page: Int, $limit: Int) { users(tenantId: $tenantId, page: $page, limit: $limit) { items { id } } }',
  'query B($tenantId: UUID!, $limit: Int! = 2) { users(tenantId: $tenantId, limit: $limit) { items { id } } }',
  'query C($ids: [UUID!]!, $maybe: [UUID], $flag: Boolean = true) { __typename }',
  'query D($when: DateTime, $text: String!, $n: Float) { __typename }',
  'mutation E($tenantId: UUID!, $input: CreateUserInput!) { createUser(tenantId: $tenantId, input: $input) { id } }',
  'query F { __typename }',
];

it('accepts exactly what getVariableValues accepts', () => {
  const check = new VariableCheck(schema);
  let accepted = 0;
  let refused = 0;
  for (const text of OPERATIONS) {
    const operation = operationOf(text);
    const names = (operation.variableDefinitions ?? []).map((definition) => definition.variable.name.value);
    const cases: Array<Record<string, unknown>> = [{}];
    for (const name of names)
      for (const value of VALUES) {
        cases.push({ [name]: value });
        cases.push(Object.fromEntries(names.map((other) => [other, other === name ? value : UUID])));
      }
    for (const inputs of cases) {
      const expected = !getVariableValues(schema, operation.variableDefinitions ?? [], inputs).errors;
      expect({ text, inputs, accepts: check.accepts(operation, inputs) }).toEqual({
        text,
        inputs,
        accepts: expected,
      });
      if (expected) accepted++;
      else refused++;
    }
  }
  expect(accepted).toBeGreaterThan(20);
  expect(refused).toBeGreaterThan(100);
});
