import type { EntityManager } from '@mikro-orm/postgresql';
import type { CloudAlertRecord } from '../cloud/security.provider.js';
import type { Scope } from '../core/scope.js';
import { AlertComment } from './alert.entity.js';
import { MAX_COMMENTS_PER_ALERT } from './alert.types.js';

/**
 * Our notes are stored as the caller wrote them, while the cloud holds them as "<author>: <text>" (what
 * AlertService.addComment posts); a note copied from the cloud is stored as the cloud holds it, its writer
 * the cloud's name (not one of our principals: src/actors/principal.ts). So a stored note reads upstream as
 * this expression, and one upstream text is matched against ours by it.
 */
export const OWN_NOTE_PRINCIPAL = `^(api_key|access_token|member|system):`;
const AS_UPSTREAM = `case when c.author ~ '${OWN_NOTE_PRINCIPAL}' then c.author_name || ': ' || c.text else c.text end`;

/**
 * Copies the comments written in the cloud's portal (Microsoft Defender) into the alerts' notes, in one
 * statement for the whole read. Copies of one text are counted, as addComment counts them to stay safe to
 * repeat: the cloud's n-th copy of a text is copied only when we hold fewer than n notes that read as it
 * upstream (ours posted there, or copied before), so our own notes and earlier copies are never doubled.
 * An alert's notes stay within MAX_COMMENTS_PER_ALERT (the oldest missing ones first). Returns how many.
 */
export async function copyCloudComments(
  em: EntityManager,
  scope: Scope,
  tenantId: string,
  alerts: readonly CloudAlertRecord[],
): Promise<number> {
  const comments = alerts.flatMap((alert) =>
    (alert.comments ?? []).map((comment, n) => ({ alertExternalId: alert.externalId, ...comment, n })),
  );
  if (comments.length === 0) return 0;
  const result = await em.execute<{ affectedRows: number }>(
    `with upstream as (
       select a.id as alert_id, r.text, r.author, r."createdAt" as created_at, r.n,
              row_number() over (partition by a.id, r.text order by r."createdAt", r.n) as copy
         from jsonb_to_recordset(?::jsonb) as r("alertExternalId" text, text text, author text,
                                                  "createdAt" timestamptz, n int)
         join security_alerts a on a.organization_id = ? and a.environment = ? and a.tenant_id = ?
                               and a.external_id = r."alertExternalId"
     ), held as (
       select c.alert_id, ${AS_UPSTREAM} as text, count(*) as copies
         from security_alert_comments c where c.alert_id in (select alert_id from upstream)
        group by 1, 2
     ), totals as (
       select c.alert_id, count(*) as notes
         from security_alert_comments c where c.alert_id in (select alert_id from upstream)
        group by 1
     ), missing as (
       select u.*, row_number() over (partition by u.alert_id order by u.created_at, u.n) as nth
         from upstream u left join held h on h.alert_id = u.alert_id and h.text = u.text
        where u.copy > coalesce(h.copies, 0)
     )
     insert into security_alert_comments (id, organization_id, environment, alert_id, text, author, author_name,
       created_at)
     select gen_random_uuid(), ?, ?, m.alert_id, m.text, m.author, m.author, m.created_at
       from missing m left join totals t on t.alert_id = m.alert_id
      where m.nth <= ? - coalesce(t.notes, 0)`,
    [
      JSON.stringify(comments),
      scope.organizationId,
      scope.environment,
      tenantId,
      scope.organizationId,
      scope.environment,
      MAX_COMMENTS_PER_ALERT,
    ],
    'run',
  );
  return result.affectedRows;
}

/**
 * Our note about to be stored, when a sync already copied it from the cloud as "<author>: <text>" (its post
 * reached the cloud, but its answer or our save was lost, and the sync ran before the retry): that copy
 * becomes our note, keeping the time it reached the cloud, instead of a second one beside it. Null when the
 * alert holds no such copy. Runs in the transaction that stores the note.
 */
export async function adoptCopiedNote(
  em: EntityManager,
  alertId: string,
  note: { text: string; author: string; authorName: string },
): Promise<AlertComment | null> {
  const [row] = await em.execute<Array<Record<string, unknown>>>(
    `update security_alert_comments set text = ?, author = ?, author_name = ?
      where id = (select c.id from security_alert_comments c
                   where c.alert_id = ? and c.author !~ '${OWN_NOTE_PRINCIPAL}' and c.text = ?
                   order by c.created_at, c.id limit 1)
      returning *`,
    [note.text, note.author, note.authorName, alertId, `${note.authorName}: ${note.text}`],
  );
  return row ? em.map(AlertComment, row) : null;
}
