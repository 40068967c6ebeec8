import { createServer } from 'node:net';

/**
 * Why a port cannot be listened on, as one line an operator can act on (which port, what uses it, how to
 * choose another), or null when it is free. Checked before the slow part of a start-up, so a busy port
 * fails in a second instead of after the database and the schema (and, unchecked, the HTTP server's
 * `listen` error hung the process: issue #33 item 1).
 */
export async function portProblem(options: {
  port: number;
  /** Omitted: every address, as the HTTP server listens. */
  host?: string;
  /** "HTTP" or "embedded PostgreSQL". */
  what: string;
  /** The variable that chooses it: PORT, EMBEDDED_PG_PORT. */
  variable: string;
}): Promise<string | null> {
  const code = await new Promise<string | null>((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    probe.listen({ port: options.port, host: options.host, exclusive: true }, () =>
      probe.close(() => resolve(null)),
    );
  });
  return code === null ? null : describeListenError(code, options);
}

/** The embedded PostgreSQL's port, on loopback: main.ts checks it before the database modules load, the server's start again. */
export function embeddedPostgresPortProblem(port: number): Promise<string | null> {
  return portProblem({ port, host: '127.0.0.1', what: 'embedded PostgreSQL', variable: 'EMBEDDED_PG_PORT' });
}

/** The one-line explanation of a failed `listen` (also used when the real listen fails after the probe). */
export function describeListenError(
  code: string,
  options: { port: number; what: string; variable: string },
): string {
  const other = options.port === 65535 ? options.port - 1 : options.port + 1;
  const choose = `choose another with ${options.variable}=… (e.g. ${options.variable}=${other} npm start)`;
  if (code === 'EADDRINUSE')
    return `port ${options.port} (${options.what}) is already in use by another program; ${choose}`;
  if (code === 'EACCES')
    return `port ${options.port} (${options.what}) needs privileges this process does not have; ${choose}`;
  return `cannot listen on port ${options.port} (${options.what}): ${code}; ${choose}`;
}
