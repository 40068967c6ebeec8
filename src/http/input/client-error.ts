import type { Duplex } from 'node:stream';
import { errorEnvelope } from '../respond.js';
import { InvalidRequestError } from '../../core/errors.js';

/** Node's parser errors (HPE_*), and what the client sent wrong in each. */
function problemOf(code: string | undefined): { status: number; field: string; problem: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        field: 'headers',
        problem: 'the URL and headers together must be at most 16 KiB (the URL alone at most 8 KiB)',
      };
    case 'HPE_INVALID_METHOD':
      return { status: 400, field: 'method', problem: 'is not an HTTP method' };
    case 'HPE_INVALID_URL':
      return { status: 400, field: 'url', problem: 'is not a valid request target' };
    default:
      return {
        status: 400,
        field: 'request',
        problem: `could not be read as HTTP/1.1 (${code ?? 'unknown'})`,
      };
  }
}

/**
 * Node answers a request its HTTP parser cannot read (a URL and headers over 16 KiB, an invalid header
 * character, a broken request line) with a bare status line and no body unless the server listens for
 * `clientError`. This listener gives those answers the same JSON envelope as every other error.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, field, problem } = problemOf(error.code);
  const body = JSON.stringify(
    errorEnvelope(
      new InvalidRequestError(`The request could not be read: ${field} ${problem}`, [{ field, problem }]),
    ),
  );
  const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}
