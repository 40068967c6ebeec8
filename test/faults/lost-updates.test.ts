/**
 * Fault suite (docs/reliability.md): concurrent read–modify–writes. Every change the API acknowledged
 * is in effect afterwards (rows are locked for the change: webhook.service.ts, member.service.ts).
 */
import { parseSecretsKey, SecretBox } from '../../src/core/secret-box.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { TEST_SECRETS_KEY } from '../helpers/test-secrets.js';
import { createWebhook, type WebhookBody } from '../webhooks/webhook-kit.js';
import type { DataOf } from '../helpers/api-types.js';

let app: SharedApp;
let org: OrganizationWithKeys;
const box = new SecretBox(parseSecretsKey(TEST_SECRETS_KEY));

beforeAll(async () => ({ app, org } = await sharedSuite({ webhooks: { allowPrivateTargets: true } })));
afterAll(() => app.stop());

async function storedSecrets(webhookId: string): Promise<string[]> {
  const { rows } = await app.pool.query<{ current: string; previous: string }>(
    'select signing_secret as current, previous_signing_secret as previous from webhooks where id = $1',
    [webhookId],
  );
  return [box.open(rows[0].current), box.open(rows[0].previous)];
}

describe('[fault] lost updates', () => {
  it('two concurrent secret rotations both stay valid (the newest and the one before it)', async () => {
    for (let round = 0; round < 5; round++) {
      const webhook = await createWebhook(app, org.keys.admin, {
        url: 'http://127.0.0.1:9/rotation',
        events: ['*'],
      });
      const rotate = () =>
        app.request<Envelope<DataOf<'rotateWebhookSecret'>>>(
          'POST',
          `/v1/webhooks/${webhook.id}/rotate-secret`,
          {
            key: org.keys.admin,
          },
        );
      const answers = await Promise.all([rotate(), rotate()]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      const acknowledged = answers.map((answer) => answer.body.data.secret!);
      expect((await storedSecrets(webhook.id)).sort()).toEqual([...acknowledged].sort());
    }
  });

  it('concurrent PATCHes of different fields of one webhook are all in effect', async () => {
    const webhook = await createWebhook(app, org.keys.admin, {
      url: 'http://127.0.0.1:9/before',
      events: ['*'],
    });
    const patch = (body: Record<string, unknown>) =>
      app.request('PATCH', `/v1/webhooks/${webhook.id}`, { key: org.keys.admin, body });
    const answers = await Promise.all([
      patch({ url: 'http://127.0.0.1:9/after' }),
      patch({ events: ['user.created'] }),
      patch({ headers: { 'x-receiver': 'one' } }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const read = await app.request<Envelope<WebhookBody>>('GET', `/v1/webhooks/${webhook.id}`, {
      key: org.keys.admin,
    });
    expect(read.body.data).toMatchObject({
      url: 'http://127.0.0.1:9/after',
      events: ['user.created'],
      headers: { 'x-receiver': 'one' },
    });
  });
});
