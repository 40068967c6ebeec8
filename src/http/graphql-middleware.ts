import { HeaderMap, type ApolloServer, type BaseContext, type ContextFunction } from '@apollo/server';
import type { Request, Response } from 'express';

/**
 * The Express handler of POST/GET /graphql: what `@as-integrations/express5`'s `expressMiddleware` does, through
 * Apollo's public `executeHTTPGraphQLRequest`, without its two per-request costs that were ~3% of a GraphQL
 * list's CPU (docs/benchmarks.md, issue #31): the legacy `url.parse` of the whole URL to find its query string,
 * and Express's `res.send`, which copies the answer into a Buffer and recomputes its headers. A complete answer is
 * written with its length in one `end`; an incremental one (`@defer`) is streamed as the integration streams it.
 */
export function graphqlMiddleware<TContext extends BaseContext>(
  server: ApolloServer<TContext>,
  context: ContextFunction<[{ req: Request; res: Response }], TContext>,
) {
  server.assertStarted('graphqlMiddleware()');
  return async (req: Request, res: Response): Promise<void> => {
    // The JSON body parser sets `body` (undefined without one), except for a request whose client has gone
    // (on-finished: it skips those): nobody to answer, nothing to log. Otherwise a route wired without the parser
    // is a programming error. (A bench's clients closing at the end of a pass logged this error in bursts.)
    const { socket } = req;
    if (!('body' in req)) {
      if (socket.destroyed || !socket.writable) return;
      throw new Error('/graphql reached without the JSON body parser');
    }
    const headers = new HeaderMap();
    for (const key in req.headers) {
      const value = req.headers[key];
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const queryAt = req.url.indexOf('?');
    const response = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: req.method.toUpperCase(),
        headers,
        // url.parse's `search` ('' without a query string, '?…' with one, up to a fragment).
        search: queryAt < 0 ? '' : req.url.slice(queryAt).split('#', 1)[0],
        // The JSON body parser runs before this handler; without a body (a GET) Apollo reads the search.
        body: req.body as unknown,
      },
      context: () => context({ req, res }),
    });
    if (response.body.kind === 'complete') {
      writeCompleteResponse(res, response.status, response.headers, response.body.string);
      return;
    }
    for (const [key, value] of response.headers) res.setHeader(key, value);
    res.statusCode = response.status ?? 200;
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  };
}

/**
 * A complete answer (Apollo's, or the fast path's in its place): its headers, status, length and text in one `end`.
 *
 * Written as a Buffer, not as the string: the text is a concatenation (`JSON.stringify(...) + '\n'`, Apollo's and
 * the fast path's), which `Buffer.byteLength` flattened into a copy on the heap, and Node's `end` of a string
 * concatenates it with the head and flattens that again to encode it: two copies of the whole answer per request
 * (~39 KiB of a users page's 284 KiB allocated per request, issue #31 ninth round). `Buffer.from` encodes the text
 * once, outside the heap, and the head is written beside it (the same bytes).
 */
export function writeCompleteResponse(
  res: Response,
  status: number | undefined,
  headers: HeaderMap,
  text: string,
): void {
  for (const [key, value] of headers) res.setHeader(key, value);
  res.statusCode = status ?? 200;
  const body = Buffer.from(text, 'utf8');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
