import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import express, { type Request, type Response } from 'express';
import type { AppDeps } from '../core/service-context.js';
import { webhookSettingsOf } from '../webhooks/webhook.settings.js';
import { RestoreItemStatus } from './backup.enums.js';
import { RestoreJobItem } from './restore-job-item.entity.js';
import { RestoreJob } from './restore-job.entity.js';

/**
 * The export target's archive (docs/backup.md "Export"): a link signed with a key of its own job (sealed at
 * rest like webhook secrets), expiring by the injectable clock. Whoever has the link can download, as with
 * any pre-signed link, so it is served outside the API guard and says nothing when the signature is wrong.
 */
export const DOWNLOAD_PATH = (jobId: string) => `/api/backup/restore/${jobId}/download`;

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

function refuse(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ success: false, error: { code, message, details: {} } });
}

async function serveDownload(orm: MikroORM, deps: AppDeps, req: Request, res: Response): Promise<void> {
  const jobId = String(req.params.jobId);
  const expires = Number(req.query.expires);
  const given = typeof req.query.signature === 'string' ? req.query.signature : '';
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
  if (!valid) return refuse(res, 403, 'FORBIDDEN', 'This download link is not valid');
  if (deps.clock.now().getTime() >= expires * 1000)
    return refuse(res, 403, 'FORBIDDEN', 'This download link has expired: export again to get a new one');
  const items = await em.find(
    RestoreJobItem,
    { jobId: job!.id, status: RestoreItemStatus.RESTORED },
    { filters: false, orderBy: { ordinal: 'asc' } },
  );
  res.setHeader('content-disposition', `attachment; filename="restore-${job!.id}.json"`);
  res.json({
    restoreJobId: job!.id,
    workload: job!.workload,
    resource: job!.resourceName,
    snapshotTakenAt: job!.snapshotTakenAt.toISOString(),
    items: items.map((item) => item.exported),
  });
}

/** Mounted before the API guard (src/app.ts). */
export function restoreDownloadRouter(orm: MikroORM, deps: AppDeps): express.Router {
  const router = express.Router();
  router.get('/api/backup/restore/:jobId/download', (req, res, next) => {
    serveDownload(orm, deps, req, res).catch(next);
  });
  return router;
}
