import type { operations } from '../../clients/typescript/src/index.js';

/**
 * Response types of the REST API taken from the generated client (clients/typescript/src/schema.d.ts), so tests do
 * not repeat them by hand. An operation is named by its operationId in schema/openapi.json.
 */
export type OperationId = keyof operations;

type SuccessStatus = 200 | 201 | 202;
type Responses<Op extends OperationId> = operations[Op]['responses'];
type JsonContent<R> = R extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON success envelope (`{success: true, data, meta?}`) of an operation's 200, 201 or 202 response. */
export type SuccessOf<Op extends OperationId> = JsonContent<
  Responses<Op>[Extract<keyof Responses<Op>, SuccessStatus>]
>;

/** The `data` of an operation's success envelope, e.g. `DataOf<'getRestrictedUser'>`. */
export type DataOf<Op extends OperationId> = SuccessOf<Op> extends { data: infer D } ? D : never;

/** The element of a list operation's `data`, e.g. `ItemOf<'listRestrictedUsers'>`. */
export type ItemOf<Op extends OperationId> = DataOf<Op> extends readonly (infer I)[] ? I : never;
