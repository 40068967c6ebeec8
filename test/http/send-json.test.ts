/**
 * `sendJson` (src/http/respond.ts) writes the answer as one UTF-8 Buffer: the bytes on the wire and Content-Length
 * are those of `JSON.stringify`'s text, for strings needing escapes, non-ASCII and lone surrogates, nulls and empty
 * pages alike, on GET and HEAD.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { sendJson } from '../../src/http/respond.js';
import { successEnvelope } from '../../rest-adapter/envelope.js';

const BODIES: unknown[] = [
  successEnvelope({ items: [], pageInfo: { page: 1, limit: 25, total: 0 } }),
  successEnvelope({
    items: [
      { name: 'quote " backslash \\ tab \t newline \n nul \u0000 del \u007f', none: null, n: -0, f: 1.5e-7 },
    ],
    pageInfo: { page: 2, limit: 1, total: 9 },
  }),
  successEnvelope({ text: 'é ✓ 😀 lone \ud800 and \udfff, pair \ud83d\ude00', list: [null, true, 0] }),
  successEnvelope(null),
  { success: false, error: { code: 'X', message: 'ü'.repeat(20_000), details: {} } },
];

let server: http.Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.get('/:index', (req, res) => sendJson(res, 200, BODIES[Number(req.params.index)]));
  app.head('/:index', (req, res) => sendJson(res, 200, BODIES[Number(req.params.index)]));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

it('sends the UTF-8 bytes of JSON.stringify with their length', async () => {
  for (const [index, body] of BODIES.entries()) {
    const expected = Buffer.from(JSON.stringify(body), 'utf8');
    const res = await fetch(`${base}/${index}`);
    const received = Buffer.from(await res.arrayBuffer());
    expect({ index, equal: received.equals(expected) }).toEqual({ index, equal: true });
    expect(res.headers.get('content-length')).toBe(String(expected.length));
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(received.toString('utf8'))).toEqual(JSON.parse(JSON.stringify(body)));
    const head = await fetch(`${base}/${index}`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(expected.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  }
});
