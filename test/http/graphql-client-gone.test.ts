/**
 * /graphql's handler (src/http/graphql-middleware.ts) and a client that has gone before its body was read: the
 * JSON body parser skips such a request without setting `body` (on-finished), which the handler used to report
 * as a server miswiring, an error-level log line per closed connection. Nobody is left to answer: it stops
 * quietly. A request that reaches it without the parser on a live connection is still a programming error.
 */
import { ApolloServer } from '@apollo/server';
import { jest } from '@jest/globals';
import type { Request, Response } from 'express';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { graphqlMiddleware } from '../../src/http/graphql-middleware.js';

let server: ApolloServer;
let handler: (req: Request, res: Response) => Promise<void>;
beforeAll(async () => {
  server = new ApolloServer({
    typeDefs: 'type Query { ok: Boolean }',
    resolvers: { Query: { ok: () => true } },
  });
  await server.start();
  handler = graphqlMiddleware(server, async () => ({}));
});
afterAll(() => server.stop());

/** A POST /graphql as Express hands it on, without `body` (the parser skipped it or never ran). */
function unparsedRequest(socket: Socket): Request {
  const req = new IncomingMessage(socket);
  req.method = 'POST';
  req.url = '/graphql';
  req.headers = { 'content-type': 'application/json' };
  return req as Request;
}

it('stops quietly when the client has gone before its body was read', async () => {
  const socket = new Socket();
  socket.destroy();
  const res = { end: jest.fn(), writeHead: jest.fn(), setHeader: jest.fn() };
  await expect(handler(unparsedRequest(socket), res as unknown as Response)).resolves.toBeUndefined();
  expect(res.end).not.toHaveBeenCalled();
  expect(res.writeHead).not.toHaveBeenCalled();
});

it('still reports a live request that reached it without the JSON body parser', async () => {
  const socket = new Socket({ writable: true });
  Object.defineProperty(socket, 'writable', { value: true });
  try {
    await expect(handler(unparsedRequest(socket), {} as Response)).rejects.toThrow(
      '/graphql reached without the JSON body parser',
    );
  } finally {
    socket.destroy();
  }
});
