import { loadConfig } from '../../src/config.js';
import { heartbeatIntervalFor, STALE_AFTER_MS } from '../../src/core/job-worker-liveness.js';

describe('JOB_STALE_AFTER_MS', () => {
  it('defaults to the liveness module’s stale time and takes a longer one', () => {
    expect(loadConfig({}).jobStaleAfterMs).toBe(STALE_AFTER_MS);
    expect(loadConfig({ JOB_STALE_AFTER_MS: '60000' }).jobStaleAfterMs).toBe(60_000);
  });

  it('refuses a value a live worker could miss between two heartbeats, and one that is no number', () => {
    expect(() => loadConfig({ JOB_STALE_AFTER_MS: '1999' })).toThrow(
      /JOB_STALE_AFTER_MS must be at least 2000 \(four heartbeats of a live worker, 500 ms apart\)/,
    );
    expect(loadConfig({ JOB_STALE_AFTER_MS: '2000' }).jobStaleAfterMs).toBe(2_000);
    expect(() => loadConfig({ JOB_STALE_AFTER_MS: 'soon' })).toThrow(/JOB_STALE_AFTER_MS/);
  });
});

describe('the job workers’ heartbeat', () => {
  it('beats four times per stale time, every 5 s at most (the default 20 s stale time: every 5 s)', () => {
    expect(heartbeatIntervalFor(STALE_AFTER_MS)).toBe(5_000);
    expect(heartbeatIntervalFor(60_000)).toBe(5_000);
    expect(heartbeatIntervalFor(10_000)).toBe(2_500);
    expect(heartbeatIntervalFor(2_000)).toBe(500);
  });
});

describe('EMBEDDED_PG_PORT', () => {
  it('refuses the API’s own port when the embedded PostgreSQL is used, and accepts it with DATABASE_URL', () => {
    expect(() => loadConfig({ PORT: '4100', EMBEDDED_PG_PORT: '4100' })).toThrow(
      /EMBEDDED_PG_PORT and PORT are both 4100/,
    );
    expect(loadConfig({ PORT: '4100', EMBEDDED_PG_PORT: '4100', DATABASE_URL: 'postgres://x/y' }).port).toBe(
      4100,
    );
  });
});

describe('MICROSOFT_LOGIN_URL and MICROSOFT_GRAPH_URL', () => {
  it('default to the public cloud and take another https origin (sovereign cloud, test fake)', () => {
    expect(loadConfig({})).toMatchObject({
      microsoftLoginUrl: 'https://login.microsoftonline.com',
      microsoftGraphUrl: 'https://graph.microsoft.com',
    });
    const config = loadConfig({
      MICROSOFT_LOGIN_URL: 'https://login.microsoftonline.us/',
      MICROSOFT_GRAPH_URL: 'https://localhost:8443',
    });
    expect(config.microsoftLoginUrl).toBe('https://login.microsoftonline.us');
    expect(config.microsoftGraphUrl).toBe('https://localhost:8443');
  });

  it('refuse http://, a path and anything that is no URL, naming the variable', () => {
    expect(() => loadConfig({ MICROSOFT_LOGIN_URL: 'http://login.example.test' })).toThrow(
      /MICROSOFT_LOGIN_URL must use https:\/\/.*NODE_EXTRA_CA_CERTS/,
    );
    expect(() => loadConfig({ MICROSOFT_GRAPH_URL: 'https://graph.example.test/v1.0' })).toThrow(
      /MICROSOFT_GRAPH_URL must be an origin only/,
    );
    expect(() => loadConfig({ MICROSOFT_GRAPH_URL: 'graph' })).toThrow(
      /MICROSOFT_GRAPH_URL must be an https:\/\//,
    );
  });

  it('MICROSOFT_DEFENDER_URL (Defender for Endpoint) defaults to the public API and is https only', () => {
    expect(loadConfig({}).microsoftDefenderUrl).toBe('https://api.security.microsoft.com');
    expect(
      loadConfig({ MICROSOFT_DEFENDER_URL: 'https://api-us.security.microsoft.com/' }).microsoftDefenderUrl,
    ).toBe('https://api-us.security.microsoft.com');
    expect(() => loadConfig({ MICROSOFT_DEFENDER_URL: 'http://api.security.example.test' })).toThrow(
      /MICROSOFT_DEFENDER_URL must use https:\/\//,
    );
  });
});
