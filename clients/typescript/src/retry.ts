export interface RetryOptions {
  /** Retries of a 429 answer before it is returned as is (default 3). */
  maxRetries?: number;
  /** Longest wait honoured, in seconds (default 60): a longer Retry-After is waited this long. */
  maxDelaySeconds?: number;
  /** How to wait (tests pass one that records). */
  sleep?: (milliseconds: number) => Promise<void>;
}

/** Retry-After as seconds: a number of seconds or an HTTP date (RFC 9110 10.2.3); 1 when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number {
  if (value === null) return 1;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? 1 : Math.max(0, Math.ceil((date - now) / 1000));
}

const wait = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** A fetch that answers a 429 by waiting what Retry-After says and sending the same request again. */
export function retryingFetch(
  base: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 3;
  const maxDelaySeconds = options.maxDelaySeconds ?? 60;
  const sleep = options.sleep ?? wait;
  return async (request: Request) => {
    for (let attempt = 0; ; attempt++) {
      // A body can be read once: every attempt sends a copy.
      const response = await base(request.clone());
      if (response.status !== 429 || attempt >= maxRetries) return response;
      await response.body?.cancel();
      const seconds = Math.min(retryAfterSeconds(response.headers.get('retry-after')), maxDelaySeconds);
      await sleep(seconds * 1000);
    }
  };
}
