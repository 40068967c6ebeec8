import DataLoader from 'dataloader';
import { defineLoader } from '../core/loaders.js';
import type { ServiceContext } from '../core/service-context.js';
import { ActorType, type Actor } from './actor.types.js';
import { parsePrincipal, systemActor, UNKNOWN_ACTOR, upstreamActor, type Principal } from './principal.js';

interface KeyRow {
  id: string;
  name: string;
}

interface MemberRow {
  member_id: string;
  email: string;
  client_id: string | null;
  client_name: string | null;
}

interface TokenRow {
  id: string;
  member_id: string;
  email: string;
  client_name: string | null;
}

/**
 * Every principal of the batch in at most three statements: one for the API keys, one for the members (with the
 * OAuth clients they acted through), one for the access tokens of records written before members were recorded
 * (joined to their members and clients). Each names the caller's organization itself (row-level security does
 * too), so another organization's key or member never lends its name: it stays UNKNOWN. Revoked keys still
 * resolve (revocation keeps the row). A legacy access-token principal shows as UNKNOWN once housekeeping has
 * deleted the expired token; new records name the member, who stays readable while a member.
 */
export async function resolveActors(ctx: ServiceContext, principals: readonly string[]): Promise<Actor[]> {
  const parsed = principals.map(parsePrincipal);
  const idsOf = (kind: Principal['kind']) => [
    ...new Set(parsed.flatMap((p) => (p.kind === kind && 'id' in p ? [p.id] : []))),
  ];
  const keyIds = idsOf('api_key');
  const tokenIds = idsOf('access_token');
  const memberIds = idsOf('member');
  const clientIds = [
    ...new Set(parsed.flatMap((p) => (p.kind === 'member' && p.clientId ? [p.clientId] : []))),
  ];
  const organizationId = ctx.scope.organizationId;

  const [keys, tokens, members] = await Promise.all([
    keyIds.length === 0
      ? Promise.resolve([] as KeyRow[])
      : ctx.em.execute<KeyRow[]>('select id, name from api_keys where organization_id = ? and id in (?)', [
          organizationId,
          keyIds,
        ]),
    tokenIds.length === 0
      ? Promise.resolve([] as TokenRow[])
      : ctx.em.execute<TokenRow[]>(
          `select t.id, m.id as member_id, m.email, c.name as client_name
             from oauth_tokens t
             join members m on m.id = t.member_id and m.organization_id = t.organization_id
             left join oauth_clients c on c.id = t.oauth_client_id and c.organization_id = t.organization_id
            where t.organization_id = ? and t.id in (?)`,
          [organizationId, tokenIds],
        ),
    memberIds.length === 0
      ? Promise.resolve([] as MemberRow[])
      : ctx.em.execute<MemberRow[]>(
          `select m.id as member_id, m.email, c.id as client_id, c.name as client_name
             from members m
             left join oauth_clients c on ${clientIds.length === 0 ? 'false' : 'c.organization_id = m.organization_id and c.id in (?)'}
            where m.organization_id = ? and m.id in (?)`,
          [...(clientIds.length === 0 ? [] : [clientIds]), organizationId, memberIds],
        ),
  ]);
  const keyById = new Map(keys.map((row) => [row.id, row]));
  const tokenById = new Map(tokens.map((row) => [row.id, row]));
  const emailOfMember = new Map(members.map((row) => [row.member_id, row.email]));
  const clientNames = new Map(
    members.flatMap((row) => (row.client_id ? [[row.client_id, row.client_name]] : [])),
  );

  return parsed.map((principal): Actor => {
    switch (principal.kind) {
      case 'api_key': {
        const key = keyById.get(principal.id);
        if (!key) return UNKNOWN_ACTOR;
        return { type: ActorType.API_KEY, id: key.id, name: key.name, email: null, oauthClientName: null };
      }
      case 'access_token': {
        const token = tokenById.get(principal.id);
        if (!token) return UNKNOWN_ACTOR;
        return {
          type: ActorType.MEMBER,
          id: token.member_id,
          name: token.email,
          email: token.email,
          oauthClientName: token.client_name,
        };
      }
      case 'member': {
        const email = emailOfMember.get(principal.id);
        if (email === undefined) return UNKNOWN_ACTOR;
        return {
          type: ActorType.MEMBER,
          id: principal.id,
          name: email,
          email,
          oauthClientName: (principal.clientId && clientNames.get(principal.clientId)) ?? null,
        };
      }
      case 'system':
        return systemActor(principal.job);
      case 'upstream':
        return upstreamActor(principal.name);
      case 'unknown':
        return UNKNOWN_ACTOR;
    }
  });
}

/** Principal string → Actor, batched and cached per request. */
export const actorLoader = defineLoader(
  'actor',
  (ctx) => new DataLoader<string, Actor>((principals) => resolveActors(ctx, principals)),
);
