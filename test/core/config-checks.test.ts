import { loadConfig } from '../../src/config.js';
import { STALE_AFTER_MS } from '../../src/core/job-worker-liveness.js';

describe('JOB_STALE_AFTER_MS', () => {
  it('defaults to the liveness module’s stale time and takes a longer one', () => {
    expect(loadConfig({}).jobStaleAfterMs).toBe(STALE_AFTER_MS);
    expect(loadConfig({ JOB_STALE_AFTER_MS: '60000' }).jobStaleAfterMs).toBe(60_000);
  });

  it('refuses a value a live worker could miss between two heartbeats, and one that is no number', () => {
    expect(() => loadConfig({ JOB_STALE_AFTER_MS: '9999' })).toThrow(
      /JOB_STALE_AFTER_MS must be at least 10000/,
    );
    expect(() => loadConfig({ JOB_STALE_AFTER_MS: 'soon' })).toThrow(/JOB_STALE_AFTER_MS/);
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
