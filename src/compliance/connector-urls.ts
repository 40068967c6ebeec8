import { isIP } from 'node:net';
import type { FieldProblem } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import { hostOf, isNonPublicAddress, parseWebhookUrl } from '../webhooks/webhook-url.js';
import { webhookSettingsOf } from '../webhooks/webhook.settings.js';

/**
 * A connector's URL credentials (`workspaceUrl`, `tenantUrl`, `systemUrl`: any credential named `…Url`) go
 * through the webhook target rule (issue #32 item 7: `http://169.254.169.254/…` and `file:///` were
 * accepted): an absolute http(s) URL without credentials, whose host is not `localhost` nor a private,
 * loopback or link-local address, literally or as the name resolves now. 400 naming
 * `credentials.<field>`. `WEBHOOK_ALLOW_PRIVATE_TARGETS` lifts the address rule, as for webhooks. A name
 * that does not resolve here is left to the test connection (sources are reached from the cloud's side);
 * a real source's client must connect through `guardedLookup` (webhook-url.ts), as webhook delivery does.
 */
export async function checkCredentialUrls(
  ctx: ServiceContext,
  credentials: Record<string, string>,
  problems: FieldProblem[],
): Promise<void> {
  const settings = webhookSettingsOf(ctx);
  for (const [name, raw] of Object.entries(credentials)) {
    if (!name.endsWith('Url')) continue;
    const field = `credentials.${name}`;
    const parsed = parseWebhookUrl(raw.trim());
    if ('problem' in parsed) {
      problems.push({ field, problem: parsed.problem });
      continue;
    }
    if (settings.allowPrivateTargets) continue;
    const host = hostOf(parsed.url);
    let addresses: string[] = [];
    if (isIP(host)) addresses = [host];
    else if (host === 'localhost' || host.endsWith('.localhost')) addresses = ['127.0.0.1'];
    else addresses = await settings.resolveHost(host).catch(() => []);
    const blocked = addresses.find(isNonPublicAddress);
    if (blocked)
      problems.push({
        field,
        problem: `must not target a private, loopback or link-local address (${host} is ${blocked})`,
      });
  }
}
