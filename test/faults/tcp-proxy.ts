import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of PostgreSQL that can freeze: while frozen, it accepts connections and
 * bytes but forwards nothing either way, exactly what a server whose processes are SIGSTOPped looks like
 * from the client (the kernel still completes the handshake). Thawed, what was held flows on in order.
 * Deterministic and bounded: no signal to a shared PostgreSQL, nothing outside this test's sockets.
 */
export class FreezableProxy {
  private frozen = false;
  private readonly flushes = new Set<() => void>();
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<FreezableProxy> {
    const accepting: { proxy?: FreezableProxy } = {};
    const server = createServer((client) =>
      accepting.proxy ? accepting.proxy.accept(client, target) : client.destroy(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    accepting.proxy = new FreezableProxy(server, (server.address() as { port: number }).port);
    return accepting.proxy;
  }

  /** The same URL, through the proxy. */
  urlFor(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    this.frozen = false;
    for (const flush of this.flushes) flush();
  }

  async stop(): Promise<void> {
    this.thaw();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    this.forward(client, upstream);
    this.forward(upstream, client);
  }

  private forward(from: Socket, to: Socket): void {
    const held: Buffer[] = [];
    const flush = () => {
      while (!this.frozen && held.length > 0) to.write(held.shift()!);
    };
    this.flushes.add(flush);
    from.on('close', () => this.flushes.delete(flush));
    from.on('data', (chunk: Buffer) => {
      held.push(chunk);
      flush();
    });
  }
}
