import cliProgress from 'cli-progress';
import { cliIo, type CliIo } from './cli-io.js';

export interface ImportCounts {
  totalRows: number;
  processedRows: number;
  createdRows: number;
  failedRows: number;
}

/** Shows an import's progress on stderr (stdout carries the result): a bar on a terminal, else lines. */
export interface ImportProgress {
  update(counts: ImportCounts): void;
  stop(): void;
}

export function importProgress(stream: CliIo['stderr'] = cliIo().stderr): ImportProgress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: 'users import [{bar}] {value}/{total} rows | created {created} | failed {failed}',
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update: (counts) => {
        const payload = { created: counts.createdRows, failed: counts.failedRows };
        if (!started) bar.start(counts.totalRows, counts.processedRows, payload);
        else bar.update(counts.processedRows, payload);
        started = true;
      },
      stop: () => bar.stop(),
    };
  }
  // Not a terminal (a script, CI, a log file): one plain line per change, no control characters.
  let last = -1;
  return {
    update: (counts) => {
      if (counts.processedRows === last) return;
      last = counts.processedRows;
      stream.write(
        `processed ${counts.processedRows}/${counts.totalRows} rows ` +
          `(created ${counts.createdRows}, failed ${counts.failedRows})\n`,
      );
    },
    stop: () => undefined,
  };
}
