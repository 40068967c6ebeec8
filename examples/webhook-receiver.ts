/**
 * A webhook receiver on an IP-literal loopback address, checking each delivery with the client's Standard Webhooks
 * verifier. Run it, then point a webhook at it (the server must allow private targets: WEBHOOK_ALLOW_PRIVATE_TARGETS,
 * docs/webhooks.md):
 *
 *   WEBHOOK_SECRET=whsec_... node dist/examples/webhook-receiver.js   # http://127.0.0.1:8081/hook (WEBHOOK_PORT)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
} from '../clients/typescript/src/index.js';

export interface ReceiverOptions {
  secret: string;
  port?: number;
  onEvent?: (event: WebhookEvent) => void;
}

/** Answers 204 to a verified delivery, 400 to anything else (the service then retries with backoff). */
export async function startWebhookReceiver(
  options: ReceiverOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        // The signature covers the raw bytes: verify before parsing.
        const event = verifyWebhook(options.secret, Buffer.concat(chunks), req.headers);
        options.onEvent?.(event);
        res.writeHead(204).end();
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`rejected: ${error.message}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('Set WEBHOOK_SECRET to the whsec_... secret of your webhook');
  const receiver = await startWebhookReceiver({
    secret,
    // Not 4000: that is the server's own default port (PORT).
    port: Number(process.env.WEBHOOK_PORT ?? 8081),
    onEvent: (event) => console.log(`${event.timestamp} ${event.event} ${event.tenant?.name ?? ''}`),
  });
  console.log(`Listening on ${receiver.url}`);
}
