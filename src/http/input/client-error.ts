import type { Duplex } from 'node:stream';
import { errorEnvelope } from '../respond.js';
import { InvalidRequestError } from '../../core/errors.js';

/** The longest a refused client's socket outlives its answer (when the answer cannot even be written). */
const CLOSE_GRACE_MS = 1_000;

const REASONS: Record<number, string> = { 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** Node's parser errors (HPE_*) and its request timeout, and what the client did wrong in each. */
function problemOf(code: string | undefined): { status: number; field: string; problem: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        field: 'headers',
        problem: 'the URL and headers together must be at most 16 KiB (the URL alone at most 8 KiB)',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        field: 'request',
        problem: 'did not arrive completely within the request timeout',
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
  // As Node itself does: no answer once a response has started on this socket (it would corrupt it).
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, field, problem } = problemOf(error.code);
  const body = JSON.stringify(
    errorEnvelope(
      new InvalidRequestError(`The request could not be read: ${field} ${problem}`, [{ field, problem }]),
    ),
  );
  const reason = REASONS[status] ?? 'Bad Request';
  // end() alone only half-closes: a client that never reads nor closes (slowloris) kept the socket and its
  // descriptor for good (issue #34 item 6: 300 such clients, 300 descriptors). Once the answer is handed
  // to the kernel (which still delivers it), the socket is destroyed; a client that does not even let it
  // be written gets the same after a second.
  const destroy = () => socket.destroy();
  setTimeout(destroy, CLOSE_GRACE_MS).unref();
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    destroy,
  );
}
