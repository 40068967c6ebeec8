import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { expectInvalid, rowCount } from './input-kit.js';

/**
 * #18.5: an invalid body is answered before any slow work. The resolver stands in for DNS and counts its
 * calls, so the test needs no clock: the host of an otherwise invalid request is never looked up.
 */
let app: SharedApp;
let org: OrganizationWithKeys;
const lookedUp: string[] = [];

beforeAll(async () => {
  ({ app, org } = await sharedSuite({
    webhooks: {
      resolveHost: async (hostname) => {
        lookedUp.push(hostname);
        return ['203.0.113.10']; // documentation range: refused as not public
      },
    },
  }));
});
afterAll(() => app.stop());

const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/XXXXXXXX';

it('answers a Slack connect with invalid events without looking its host up', async () => {
  lookedUp.length = 0;
  const res = await app.request<Envelope>('POST', '/api/settings/integrations/slack/connect', {
    key: org.keys.admin,
    body: { url: SLACK_URL, events: ['no.such.kind'] },
  });
  expectInvalid(res, 'events[0]');
  expect(lookedUp).toEqual([]);
  expect(await rowCount(app, 'webhooks', org.organization.id)).toBe(0);
});

it('answers a webhook with invalid headers without looking its host up', async () => {
  lookedUp.length = 0;
  const res = await app.request<Envelope>('POST', '/v1/webhooks', {
    key: org.keys.admin,
    body: { url: 'https://receiver.example.com/hook', events: ['*'], headers: { Host: 'x' } },
  });
  expectInvalid(res, 'headers.Host');
  expect(lookedUp).toEqual([]);
});

it('looks the host up once the rest of the input is valid', async () => {
  lookedUp.length = 0;
  const res = await app.request<Envelope>('POST', '/api/settings/integrations/slack/connect', {
    key: org.keys.admin,
    body: { url: SLACK_URL },
  });
  expectInvalid(res, 'url');
  expect(lookedUp).toEqual(['hooks.slack.com']);
});
