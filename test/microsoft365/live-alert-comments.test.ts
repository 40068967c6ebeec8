import type { SecurityNamespace } from '@microsoft/microsoft-graph-types';
import { fakeAlert, fakeSecurity } from '../graph-fake/graph-fake-security.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import { api } from '../security/security-kit.js';
import {
  graphCalls,
  onboardAndSyncLive,
  sharedLiveWorld,
  stopLiveWorld,
  type LiveWorld,
} from './live-kit.js';
import type { SharedApp } from '../helpers/shared-suite.js';

/**
 * Comments written in the Microsoft Defender portal come back as the alert's notes at the next sync (issue #30
 * item 3), counted by text like addComment counts them: our own notes (posted as "<author>: <text>") are never
 * copied back beside themselves, and a note whose post reached Graph but was not stored here is adopted by the
 * retry instead of doubled.
 */
let world: LiveWorld<SharedApp>;
let tenantId: string;
let alertId: string;

interface Note {
  id: string;
  text: string;
  authorName: string;
  author: { type: string; name: string | null };
  createdAt: string;
}

const upstreamAlert = () => fakeSecurity(world.scenario.consented).alerts[0];
/** A comment written in the Defender portal (Graph then stamps the alert as updated). */
function portalComment(comment: string, createdByDisplayName = 'Megan Bowen'): void {
  const alert = upstreamAlert();
  const now = new Date().toISOString();
  alert.comments = [...(alert.comments ?? []), { comment, createdByDisplayName, createdDateTime: now }];
  alert.lastUpdateDateTime = now;
}
const notes = async () =>
  (await api<Note[]>(world.app, 'GET', `/alerts/${alertId}/comments?limit=100`, { key: world.key, tenantId }))
    .body.data;
const texts = async () => (await notes()).map((note) => note.text);
async function sync(): Promise<void> {
  const done = await syncAndWait(world.app, world.org, tenantId, 30_000, world.key);
  expect(done).toMatchObject({ status: 'Completed', error: null });
}

beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
  const alert: SecurityNamespace.Alert = fakeAlert({ id: 'da-c1', title: 'Mass download by a user' });
  // Before the server's clock (2026-11-01), which dates our notes: the portal's note is the oldest.
  alert.comments = [
    {
      comment: 'Looking into it from the portal',
      createdByDisplayName: 'Megan Bowen',
      createdDateTime: '2026-10-20T09:00:00Z',
    },
  ];
  fakeSecurity(world.scenario.consented).alerts = [alert];
  ({ tenantId } = await onboardAndSyncLive(world));
  const list = await api<Array<{ id: string }>>(world.app, 'GET', '/alerts', { key: world.key, tenantId });
  alertId = list.body.data[0].id;
}, 60_000);
afterAll(() => stopLiveWorld(world));
beforeEach(() => world.scenario.fake.clearRequests());

describe("alert comments written in Microsoft's portal", () => {
  it("come in with the sync as notes by the cloud's writer (UPSTREAM)", async () => {
    expect(await notes()).toEqual([
      expect.objectContaining({
        text: 'Looking into it from the portal',
        authorName: 'Megan Bowen',
        author: expect.objectContaining({ type: 'UPSTREAM', name: 'Megan Bowen' }),
        createdAt: '2026-10-20T09:00:00.000Z',
      }),
    ]);
  });

  it('are merged with ours without doubling ours; a text repeated in the portal is copied as often', async () => {
    const added = await api<Note>(world.app, 'POST', `/alerts/${alertId}/comments`, {
      key: world.key,
      tenantId,
      body: { text: 'Reset the password' },
    });
    expect(added.status).toBe(201);
    const upstreamText = `${added.body.data.authorName}: Reset the password`;
    expect(upstreamAlert().comments!.map((comment) => comment.comment)).toContain(upstreamText);
    portalComment('Confirmed phishing');
    await sync();
    expect(await texts()).toEqual([
      'Looking into it from the portal',
      'Reset the password',
      'Confirmed phishing',
    ]);
    // Read again (the alert changed upstream once more): the same comments, nothing copied twice.
    portalComment('Confirmed phishing', 'Alex Wilber');
    await sync();
    expect(await texts()).toEqual([
      'Looking into it from the portal',
      'Reset the password',
      'Confirmed phishing',
      'Confirmed phishing',
    ]);
    upstreamAlert().lastUpdateDateTime = new Date().toISOString();
    await sync();
    expect(await texts()).toHaveLength(4);
  });

  it('a note whose post reached Graph but was not stored, copied by a sync, is adopted by the retry', async () => {
    const authorName = (await notes()).find((note) => note.text === 'Reset the password')!.authorName;
    // The post reached Graph; its answer was lost, so our row was never written. A sync copies it meanwhile.
    portalComment(`${authorName}: Revoked the sessions`, 'MSP platform (app)');
    await sync();
    expect(await texts()).toContain(`${authorName}: Revoked the sessions`);
    world.scenario.fake.clearRequests();
    const retried = await api<Note>(world.app, 'POST', `/alerts/${alertId}/comments`, {
      key: world.key,
      tenantId,
      body: { text: 'Revoked the sessions' },
    });
    expect(retried.status).toBe(201);
    expect(retried.body.data).toMatchObject({ text: 'Revoked the sessions', authorName });
    expect(retried.body.data.author.type).toBe('API_KEY');
    // Graph already held it: read, not posted again; and the copy became our note (one, not two).
    expect(graphCalls(world)).toEqual(['GET /v1.0/security/alerts_v2/da-c1']);
    const after = await texts();
    expect(after.filter((text) => text.includes('Revoked the sessions'))).toEqual(['Revoked the sessions']);
    upstreamAlert().lastUpdateDateTime = new Date().toISOString();
    await sync();
    expect(await texts()).toEqual(after);
  });
});
