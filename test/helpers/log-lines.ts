import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { RequestLogFields } from '../../src/http/request-log.js';
import { eventually } from './eventually.js';

export interface LogLines {
  logger: pino.Logger;
  lines: Array<{ http?: RequestLogFields }>;
  /** The request-log line of the first request logged from line `from` on (but its duration and request id). */
  requestLine(from: number): Promise<Omit<RequestLogFields, 'durationMs' | 'requestId'>>;
}

/** A logger at `info` whose lines are kept, parsed, for comparing two servers' request logs. */
export function captureLogLines(): LogLines {
  const lines: Array<{ http?: RequestLogFields }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(text) as { http?: RequestLogFields });
      done();
    },
  });
  return {
    logger: pino({ level: 'info' }, stream),
    lines,
    async requestLine(from) {
      // The line is written when the response has finished, which may be after the client has it.
      const line = await eventually(() => {
        const found = lines.slice(from).find((entry) => entry.http);
        if (!found?.http) throw new Error('no request log line yet');
        return found.http;
      });
      const { durationMs, requestId, ...fields } = line;
      void durationMs;
      void requestId;
      return fields;
    },
  };
}
