import type { WebhookSettings } from './webhook.settings.js';

type RetrySettings = Pick<WebhookSettings, 'retryScheduleMs' | 'jitterRatio' | 'maxRetryAfterMs'>;

/**
 * The wait after failed attempt `attemptNumber` (1-based), spread by ± jitterRatio; null when the
 * schedule is exhausted and the delivery has failed. DECISIONS: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 10 h: eight attempts over about 27.6 hours.
 */
export function scheduledRetryMs(
  attemptNumber: number,
  settings: RetrySettings,
  random: () => number = Math.random,
): number | null {
  const base = settings.retryScheduleMs[attemptNumber - 1];
  if (base === undefined) return null;
  return Math.max(0, Math.round(base * (1 + settings.jitterRatio * (2 * random() - 1))));
}

/**
 * An HTTP-date (RFC 9110 5.6.7: IMF-fixdate, or the obsolete RFC 850 and asctime forms) starts with a day
 * name and holds a time of day. Checked before Date.parse, which also reads "-5" or "1.5" as dates.
 */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s.*\b\d{2}:\d{2}:\d{2}\b/;

/**
 * `Retry-After` as delta-seconds or an HTTP date (the receiver's clock, so compared with ours); null for
 * anything else. Not capped here: nextRetryDelayMs caps it at maxRetryAfterMs.
 */
export function parseRetryAfterMs(header: string | string[] | undefined, wallNow: number): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!HTTP_DATE.test(trimmed)) return null;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - wallNow);
}

/** Statuses whose `Retry-After` is honoured (SPEC: rate limited or unavailable). */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/**
 * When to try again after a failed attempt: the schedule's wait, or later if a 429/503 asked for it
 * with Retry-After (capped at maxRetryAfterMs). Null: no retries left.
 */
export function nextRetryDelayMs(
  attemptNumber: number,
  failure: { statusCode: number | null; retryAfter?: string | string[] },
  settings: RetrySettings,
  wallNow: number,
): number | null {
  const scheduled = scheduledRetryMs(attemptNumber, settings);
  if (scheduled === null) return null;
  if (failure.statusCode === null || !RETRY_AFTER_STATUSES.has(failure.statusCode)) return scheduled;
  const asked = parseRetryAfterMs(failure.retryAfter, wallNow);
  return asked === null ? scheduled : Math.max(scheduled, Math.min(asked, settings.maxRetryAfterMs));
}
