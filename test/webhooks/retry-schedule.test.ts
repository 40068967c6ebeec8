import { nextRetryDelayMs, parseRetryAfterMs, scheduledRetryMs } from '../../src/webhooks/webhook-retry.js';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/webhooks/webhook.settings.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** DECISIONS "Events": about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then failed. */
const DECISIONS_SCHEDULE = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

describe('the delivery contract (DEFAULT_WEBHOOK_SETTINGS)', () => {
  it('retries on the schedule of DECISIONS: seven waits, so eight attempts over about 27.6 hours', () => {
    expect(DEFAULT_WEBHOOK_SETTINGS.retryScheduleMs).toEqual(DECISIONS_SCHEDULE);
    const total = DECISIONS_SCHEDULE.reduce((sum, wait) => sum + wait, 0);
    expect(total / HOUR).toBeCloseTo(27.6, 1);
  });

  it('gives an attempt 15 s and DNS 5 s, disables after 5 days of failures, signs with the old secret for 24 h', () => {
    expect(DEFAULT_WEBHOOK_SETTINGS).toMatchObject({
      timeoutMs: 15_000,
      jitterRatio: 0.2,
      disableAfterFailingMs: 5 * DAY,
      rotationOverlapMs: 24 * HOUR,
      maxRetryAfterMs: 24 * HOUR,
      resolveTimeoutMs: 5_000,
      allowPrivateTargets: false,
    });
  });
});

describe('scheduledRetryMs', () => {
  const settings = DEFAULT_WEBHOOK_SETTINGS;

  it.each(DECISIONS_SCHEDULE.map((wait, index) => [index + 1, wait]))(
    'after failed attempt %i waits %i ms, spread by at most ±20 %%',
    (attempt, wait) => {
      expect(scheduledRetryMs(attempt, settings, () => 0)).toBe(Math.round(wait * 0.8));
      expect(scheduledRetryMs(attempt, settings, () => 0.5)).toBe(wait);
      const highest = scheduledRetryMs(attempt, settings, () => 0.999_999)!;
      expect(highest).toBeLessThanOrEqual(Math.round(wait * 1.2));
      expect(highest).toBeGreaterThan(Math.round(wait * 1.19));
    },
  );

  it('stays within the bounds with the real random source', () => {
    for (let i = 0; i < 1000; i++) {
      const wait = scheduledRetryMs(2, settings)!;
      expect(wait).toBeGreaterThanOrEqual(0.8 * 5 * MINUTE);
      expect(wait).toBeLessThanOrEqual(1.2 * 5 * MINUTE);
    }
  });

  it('has no wait after the eighth attempt: the delivery has failed', () => {
    expect(scheduledRetryMs(8, settings, () => 0.5)).toBeNull();
    expect(scheduledRetryMs(9, settings, () => 0.5)).toBeNull();
  });
});

describe('parseRetryAfterMs', () => {
  const wallNow = Date.parse('2026-11-01T12:00:00Z');

  it.each([
    ['delta-seconds', '120', 120_000],
    ['delta-seconds with spaces', ' 7 ', 7_000],
    ['zero', '0', 0],
    ['an IMF-fixdate 90 s ahead', 'Sun, 01 Nov 2026 12:01:30 GMT', 90_000],
    ['an RFC 850 date 1 h ahead', 'Sunday, 01-Nov-26 13:00:00 GMT', HOUR],
    ['a date in the past', 'Sun, 01 Nov 2026 11:00:00 GMT', 0],
    ['the first of several values', ['30', '60'], 30_000],
  ])('reads %s', (_case, header, expected) => {
    expect(parseRetryAfterMs(header, wallNow)).toBe(expected);
  });

  it('returns the asked wait uncapped (the cap is nextRetryDelayMs’s)', () => {
    expect(parseRetryAfterMs('604800', wallNow)).toBe(7 * DAY);
  });

  it.each([undefined, '', 'soon', '-5', '1.5', '1e3', '12abc', '2026-11-02', 'tomorrow 12:00:00'])(
    'ignores %p',
    (header) => {
      expect(parseRetryAfterMs(header, wallNow)).toBeNull();
    },
  );
});

describe('nextRetryDelayMs', () => {
  const settings = { ...DEFAULT_WEBHOOK_SETTINGS, jitterRatio: 0 };
  const wallNow = Date.now();

  it('honours Retry-After on 429 and 503 when it asks for longer than the schedule', () => {
    expect(nextRetryDelayMs(1, { statusCode: 429, retryAfter: '60' }, settings, wallNow)).toBe(60_000);
    expect(nextRetryDelayMs(1, { statusCode: 503, retryAfter: '60' }, settings, wallNow)).toBe(60_000);
  });

  it('never waits less than the schedule', () => {
    expect(nextRetryDelayMs(2, { statusCode: 429, retryAfter: '1' }, settings, wallNow)).toBe(5 * MINUTE);
  });

  it('caps Retry-After at 24 hours', () => {
    expect(nextRetryDelayMs(1, { statusCode: 503, retryAfter: '604800' }, settings, wallNow)).toBe(DAY);
  });

  it('ignores Retry-After on other statuses, and garbage on 429', () => {
    expect(nextRetryDelayMs(1, { statusCode: 500, retryAfter: '600' }, settings, wallNow)).toBe(5 * SECOND);
    expect(nextRetryDelayMs(1, { statusCode: null }, settings, wallNow)).toBe(5 * SECOND);
    expect(nextRetryDelayMs(1, { statusCode: 429, retryAfter: 'later' }, settings, wallNow)).toBe(5 * SECOND);
  });

  it('ends the schedule after the eighth attempt, whatever Retry-After asks', () => {
    expect(nextRetryDelayMs(8, { statusCode: 429, retryAfter: '5' }, settings, wallNow)).toBeNull();
  });
});
