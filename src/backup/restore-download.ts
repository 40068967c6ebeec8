import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import express, { type Request, type Response } from 'express';
import { RateLimitedError } from '../core/errors.js';
import type { AppDeps } from '../core/service-context.js';
import {
  clientIpBucket,
  organizationBucket,
  setRateLimitHeaders,
  type RateLimiter,
} from '../http/rate-limit.js';
import { Organization } from '../organizations/organization.entity.js';
import { webhookSettingsOf } from '../webhooks/webhook.settings.js';
import { RestoreItemStatus } from './backup.enums.js';
import { RestoreJob } from './restore-job.entity.js';

/**
 * The export target's archive (docs/backup.md "Export"): a link signed with a key of its own job (sealed at
 * rest like webhook secrets), expiring by the injectable clock. Whoever has the link can download, as with
 * any pre-signed link, so it is served outside the API guard and says nothing when the signature is wrong.
 */
const DOWNLOAD_PATH = (jobId: string) => `/api/backup/restore/${jobId}/download`;

export function newDownloadSecret(deps: AppDeps): string {
  return webhookSettingsOf(deps).secretBox.seal(randomBytes(32).toString('base64url'));
}

function signature(deps: AppDeps, sealedSecret: string, jobId: string, expires: number): string {
  const key = webhookSettingsOf(deps).secretBox.open(sealedSecret);
  return createHmac('sha256', key).update(`${jobId}.${expires}`).digest('base64url');
}

/** The signed link of an export, or null when the job has none (not an export, or nothing exported). */
export function downloadUrlOf(deps: AppDeps, job: RestoreJob): string | null {
  if (!job.downloadSecret || !job.downloadExpiresAt) return null;
  const expires = Math.floor(job.downloadExpiresAt.getTime() / 1000);
  const url = new URL(DOWNLOAD_PATH(job.id), deps.publicUrl);
  url.searchParams.set('expires', String(expires));
  url.searchParams.set('signature', signature(deps, job.downloadSecret, job.id, expires));
  return url.toString();
}

const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

function refuse(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ success: false, error: { code, message, details: {} } });
}

async function serveDownload(
  orm: MikroORM,
  deps: AppDeps,
  rateLimiter: RateLimiter,
  req: Request,
  res: Response,
): Promise<void> {
  const jobId = String(req.params.jobId);
  const expires = Number(req.query.expires);
  // A signature is 43 base64url characters (HMAC-SHA256); anything else fails here, before timingSafeEqual
  // (43 non-ASCII characters are more than 43 bytes, and made it throw: a 500, issue #32 item 7).
  const given =
    typeof req.query.signature === 'string' && SIGNATURE.test(req.query.signature) ? req.query.signature : '';
  const em = orm.em.fork();
  // Outside any organization's scope: the signature, checked next, is the authorization.
  const job = /^[0-9a-f-]{36}$/i.test(jobId)
    ? await em.findOne(RestoreJob, { id: jobId }, { filters: false })
    : null;
  const expected =
    job?.downloadSecret && Number.isInteger(expires)
      ? signature(deps, job.downloadSecret, job.id, expires)
      : '';
  const valid =
    expected.length > 0 &&
    given.length === expected.length &&
    timingSafeEqual(Buffer.from(given), Buffer.from(expected)) &&
    job!.downloadExpiresAt !== null &&
    expires === Math.floor(job!.downloadExpiresAt.getTime() / 1000);
  // Counted like any request (SPEC 8.1): a verified link in its job's organization-environment window, as
  // if the organization's key had fetched it; anything else per client address, like a bad API key.
  const bucket = valid
    ? organizationBucket(job!.organizationId, job!.environment, await rateLimitOf(em, job!.organizationId))
    : clientIpBucket(req.ip ?? '');
  const outcome = await rateLimiter.consumeIn(bucket);
  setRateLimitHeaders(outcome, (name, value) => res.setHeader(name, value));
  if (!outcome.allowed) throw new RateLimitedError(outcome.retryAfterSeconds);
  if (!valid) return refuse(res, 403, 'FORBIDDEN', 'This download link is not valid');
  if (deps.clock.now().getTime() >= expires * 1000)
    return refuse(res, 403, 'FORBIDDEN', 'This download link has expired: export again to get a new one');
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-disposition', `attachment; filename="restore-${job!.id}.json"`);
  // pipeline: the next page is read only once the client took the last one, and a client that goes away
  // ends the generator (no further reads).
  await pipeline(Readable.from(exportArchive(em, job!)), res);
}

/** The requests per minute of an organization's plan (the same number its keys are counted against). */
async function rateLimitOf(em: EntityManager, organizationId: string): Promise<number> {
  const organization = await em.findOneOrFail(Organization, { id: organizationId }, { filters: false });
  return organization.rateLimitPerMinute;
}

/** Items read per statement while an archive streams: memory per download stays a page, whatever its size. */
const EXPORT_PAGE_SIZE = 500;

/**
 * The archive as JSON text, page by page over the (job, status, ordinal) index. Each item is PostgreSQL's own
 * text of its jsonb: never parsed or re-serialized here.
 */
export async function* exportArchive(
  em: EntityManager,
  job: RestoreJob,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<string> {
  const head = {
    restoreJobId: job.id,
    workload: job.workload,
    resource: job.resourceName,
    snapshotTakenAt: job.snapshotTakenAt.toISOString(),
  };
  yield `${JSON.stringify(head).slice(0, -1)},"items":[`;
  let afterOrdinal = 0;
  for (let first = true; ;) {
    const rows = await em
      .getConnection()
      .execute<Array<{ ordinal: number; exported: string | null }>>(
        `select ordinal, exported::text as exported from restore_job_items ` +
          `where job_id = ? and status = ? and ordinal > ? order by ordinal limit ?`,
        [job.id, RestoreItemStatus.RESTORED, afterOrdinal, pageSize],
      );
    if (rows.length > 0) {
      yield (first ? '' : ',') + rows.map((row) => row.exported ?? 'null').join(',');
      first = false;
      afterOrdinal = rows[rows.length - 1].ordinal;
    }
    if (rows.length < pageSize) break;
  }
  yield ']}';
}

/** Mounted before the API guard (src/app.ts), under /api and /v1/api like every feature route (DECISIONS). */
export function restoreDownloadRouter(
  orm: MikroORM,
  deps: AppDeps,
  rateLimiter: RateLimiter,
  logError: (error: unknown, req: Request) => void,
): express.Router {
  const router = express.Router();
  router.get([DOWNLOAD_PATH(':jobId'), `/v1${DOWNLOAD_PATH(':jobId')}`], (req, res, next) => {
    serveDownload(orm, deps, rateLimiter, req, res).catch((error: unknown) => {
      if (!res.headersSent) return next(error);
      // Part of the archive is on its way, so no status can follow: the connection is cut, and the client
      // sees a truncated body (no closing bracket). A client that went away is not an error of ours.
      res.destroy();
      if ((error as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') logError(error, req);
    });
  });
  return router;
}
