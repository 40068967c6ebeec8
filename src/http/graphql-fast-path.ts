import {
  HeaderMap,
  type ApolloServerPlugin,
  type GraphQLRequestContext,
  type GraphQLRequestContextDidResolveOperation,
  type GraphQLRequestContextWillSendResponse,
  type GraphQLRequestListener,
} from '@apollo/server';
import type { NextFunction, Request, Response } from 'express';
import { getOperationAST, type ExecutionResult, type GraphQLSchema } from 'graphql';
import Negotiator from 'negotiator';
import type { JitExecutor } from '../core/jit-gateway.js';
import type { RequestContext } from '../core/request-context.js';
import { writeCompleteResponse } from './graphql-middleware.js';
import { holdOf } from './rate-limit-overlap.js';

/** The body of a POST /graphql the fast path takes: Apollo's own reading of it (runHttpQuery), narrowed. */
interface FastRequest {
  query: string;
  operationName?: string;
  variables?: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The request Apollo would read from `body`, or undefined for anything it might read otherwise or refuse (an
 * `extensions` member, e.g. a persisted query; a batch; a member of the wrong type): Apollo answers those.
 */
function fastRequestOf(body: unknown): FastRequest | undefined {
  if (!isRecord(body)) return undefined;
  for (const key in body)
    if (key !== 'query' && key !== 'variables' && key !== 'operationName') return undefined;
  const { query, variables, operationName } = body;
  if (typeof query !== 'string') return undefined;
  if (variables !== undefined && variables !== null && !isRecord(variables)) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    return undefined;
  return { query, operationName: operationName ?? undefined, variables: variables ?? undefined };
}

/** Apollo's chooseContentTypeForSingleResultResponse (@apollo/server 5, ApolloServer.ts): null means 406. */
function contentTypeFor(accept: string | undefined): string | null {
  if (!accept) return 'application/json; charset=utf-8';
  return (
    new Negotiator({ headers: { accept } }).mediaType([
      'application/json; charset=utf-8',
      'application/graphql-response+json; charset=utf-8',
      'application/json; callbackSpec=1.0; charset=utf-8',
    ]) ?? null
  );
}

/** Apollo's processGraphQLRequest clones the context object for each operation (cloneObject): so do we. */
const cloneObject = <T extends object>(object: T): T =>
  Object.assign(Object.create(Object.getPrototypeOf(object) as object | null) as T, object);

let answered = 0;

/** Requests the fast path has answered in this process (tests read it to know which way a request went). */
export function fastPathAnswers(): number {
  return answered;
}

/** What the fast path hands the plugins' hooks: the members of Apollo's request context our plugins read. */
type HookContext = GraphQLRequestContextDidResolveOperation<RequestContext> &
  GraphQLRequestContextWillSendResponse<RequestContext>;

/**
 * POST /graphql for a query document Apollo has already run (parsed, validated, executed), answered without
 * Apollo's per-request pipeline (issue #31 goal 1: its request parsing, query hash, header map, request context,
 * gateway context, hook dispatch and content negotiation were a quarter of a GraphQL list's CPU).
 *
 * What stays the same, by construction: the plugins are Apollo's own list, their hooks called in Apollo's order
 * (requestDidStart, didResolveSource, didResolveOperation, willSendResponse) on a context with the members they
 * read; the query runs through the same graphql-jit executor (src/core/jit-gateway.ts); the answer is Apollo's
 * (status, headers set by hooks, then its content type, `JSON.stringify(result) + '\n'`) written by the same
 * writer. Everything else goes to Apollo, untouched: other methods, bodies Apollo might read differently, a
 * document not yet run, mutations and subscriptions, a request without a held answer (one that waited for its
 * rate-limit count), an Accept header Apollo refuses, a plugin with other hooks. A request the fast path has
 * started is handed to Apollo as soon as anything is not plain success: a hook that refuses it (Apollo runs the
 * hooks again: they are checks, and the cost is charged once per request, src/http/query-cost.plugin.ts),
 * variables graphql-js refuses (before anything runs), or a result with errors, which Apollo answers from the
 * result already computed (`JitExecutor.replay`, never executed twice). test/http/graphql-fast-path.test.ts
 * compares both ways' answers byte for byte.
 */
export class GraphQLFastPath {
  private open = true;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly executor: JitExecutor,
    private readonly plugins: readonly ApolloServerPlugin<RequestContext>[],
    /** The request's GraphQL context, the one Apollo's context function returns for it too. */
    private readonly contextOf: (req: Request) => RequestContext,
  ) {}

  /** Apollo is stopping: it answers every request from now on (with its own refusal once stopped). */
  close(): void {
    this.open = false;
  }

  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (!this.open || req.method !== 'POST' || !req.viewer) return next();
      const request = fastRequestOf(req.body);
      const run = request && this.executor.documentOf(request.query);
      const contentType = run && contentTypeFor(req.headers.accept);
      if (!request || !run || !contentType) return next();
      this.answer(req, res, request, run.document, contentType).then(
        (answered) => (answered ? undefined : next()),
        next,
      );
    };
  }

  /** True when answered; false hands the request to Apollo. */
  private async answer(
    req: Request,
    res: Response,
    request: FastRequest,
    document: HookContext['document'],
    contentType: string,
  ): Promise<boolean> {
    const operation = getOperationAST(document, request.operationName);
    if (operation?.operation !== 'query') return false;
    let context: RequestContext;
    try {
      context = this.contextOf(req);
    } catch {
      return false; // Apollo calls the same function and answers its failure
    }
    if (!holdOf(context)) return false;
    const contextValue = cloneObject(context);
    const hookContext = {
      schema: this.schema,
      request: { query: request.query, operationName: request.operationName, variables: request.variables },
      response: { http: { status: undefined, headers: new HeaderMap() } },
      contextValue,
      metrics: {},
      requestIsBatched: false,
      source: request.query,
      document,
      operation,
      operationName: operation.name?.value || null,
    } as unknown as HookContext;
    const listeners = (
      await Promise.all(
        this.plugins.map((plugin) =>
          plugin.requestDidStart?.(hookContext as GraphQLRequestContext<RequestContext>),
        ),
      )
    ).filter((listener): listener is GraphQLRequestListener<RequestContext> => !!listener);
    if (listeners.some(hasHooksBeyondTheFastPath)) return false;
    await Promise.all(listeners.map((listener) => listener.didResolveSource?.(hookContext)));
    try {
      await Promise.all(listeners.map((listener) => listener.didResolveOperation?.(hookContext)));
    } catch {
      return false;
    }
    const variables = request.variables ?? {};
    if (this.executor.variableErrors(operation, variables)) return false;
    let result: ExecutionResult;
    try {
      result = await this.executor.execute(
        document,
        operation,
        operation.name?.value,
        variables,
        contextValue,
      );
    } catch (error) {
      this.executor.replay(contextValue, Promise.reject(error));
      return false;
    }
    if (result.errors !== undefined) {
      this.executor.replay(contextValue, result);
      return false;
    }
    hookContext.response.body = { kind: 'single', singleResult: { ...result, errors: undefined } };
    try {
      await Promise.all(listeners.map((listener) => listener.willSendResponse?.(hookContext)));
    } catch {
      this.executor.replay(contextValue, result);
      return false;
    }
    const { http } = hookContext.response;
    if (!http.headers.get('content-type')) http.headers.set('content-type', contentType);
    const text = `${JSON.stringify({ errors: undefined, data: result.data, extensions: result.extensions })}\n`;
    answered++;
    writeCompleteResponse(res, http.status, http.headers, text);
    return true;
  }
}

/**
 * Hooks Apollo would call for this request that the fast path does not: such a plugin's requests go to Apollo.
 * (Parsing and validation hooks are not called for a document in Apollo's document store either, and the
 * fast path only takes documents Apollo has validated.)
 */
function hasHooksBeyondTheFastPath(listener: GraphQLRequestListener<RequestContext>): boolean {
  return !!(listener.responseForOperation || listener.executionDidStart);
}
