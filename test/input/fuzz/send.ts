import http from 'node:http';
import { HTTP_STATUS_BY_CODE, type ErrorCode } from '../../../src/core/errors.js';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export interface RawResponse {
  status: number;
  text: string;
}

/** A request exactly as given (no URL normalisation, any method with a body), unlike fetch. */
export function sendRaw(
  baseUrl: string,
  request: { method: string; path: string; headers: Record<string, string>; body: Buffer | null },
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      { agent, hostname, port, method: request.method, path: request.path, headers: request.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body ?? undefined);
  });
}

export function closeConnections(): void {
  agent.destroy();
}

const CODES = new Set(Object.keys(HTTP_STATUS_BY_CODE));

/** What is wrong with a REST error response (null when it is a proper envelope). */
export function envelopeProblem(response: RawResponse): string | null {
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return `not JSON: ${response.text.slice(0, 80)}`;
  }
  const error = (body as { success?: unknown; error?: Record<string, unknown> }).error;
  if ((body as { success?: unknown }).success !== false || !error) return 'no {success:false, error}';
  const code = error.code as ErrorCode;
  if (!CODES.has(code)) return `unknown code ${String(code)}`;
  if (typeof error.message !== 'string') return 'no message';
  const parserLimit = response.status === 431 && code === 'INVALID_REQUEST';
  if (HTTP_STATUS_BY_CODE[code] !== response.status && !parserLimit)
    return `status ${response.status} with code ${code}`;
  if (code === 'INVALID_REQUEST') {
    const fields = (error.details as { fields?: unknown } | undefined)?.fields;
    if (!Array.isArray(fields) || fields.length === 0) return 'INVALID_REQUEST naming no field';
  }
  return null;
}
