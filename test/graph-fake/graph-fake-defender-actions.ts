import { randomUUID } from 'node:crypto';
import type { DefenderMachine } from '../../src/cloud/microsoft365/defender-types.js';
import { defenderError, sent, type FakeDefender, type FakeMachineAction } from './graph-fake-defender.js';
import type { FakeReply } from './graph-fake-login.js';
import type { IssuedToken } from './graph-fake-state.js';

/**
 * Defender's machine actions on the fake (learn.microsoft.com "Isolate machine", "Release device from
 * isolation", "Run antivirus scan"): the documented bodies checked, one action of a family at a time per machine
 * (else Defender's 400 ActiveRequestAlreadyExists), and actions that move on as they are read.
 */
const ROLES = { isolate: ['Machine.Isolate'], scan: ['Machine.Scan'] };

/** Each read moves an unfinished action on: Pending → InProgress → its outcome. */
export function advance(action: FakeMachineAction): void {
  if (action.status === 'Pending') action.status = 'InProgress';
  else if (action.status === 'InProgress') action.status = action.outcome;
  else return;
  action.lastUpdateDateTimeUtc = new Date().toISOString();
}

const POSTS: Record<
  string,
  { type: string; roles: string[]; scope: (body: Record<string, unknown>) => string | null | 'bad' }
> = {
  isolate: {
    type: 'Isolate',
    roles: ROLES.isolate,
    scope: (body) =>
      body.IsolationType === 'Full' || body.IsolationType === 'Selective' ? body.IsolationType : 'bad',
  },
  unisolate: { type: 'Unisolate', roles: ROLES.isolate, scope: () => null },
  runAntiVirusScan: {
    type: 'RunAntiVirusScan',
    roles: ROLES.scan,
    scope: (body) => (body.ScanType === 'Quick' || body.ScanType === 'Full' ? body.ScanType : 'bad'),
  },
};

/** A family Defender lets run one at a time on a machine. */
const familyOf = (type: string) => (type === 'RunAntiVirusScan' ? 'scan' : 'isolation');

export function postAction(
  defender: FakeDefender,
  machine: DefenderMachine,
  verb: string,
  token: IssuedToken,
  body: unknown,
): FakeReply {
  const post = POSTS[verb];
  if (!post) return defenderError(404, 'NotFound', `The fake does not serve POST ${verb}`);
  if (!post.roles.some((role) => token.roles.includes(role)))
    return defenderError(403, 'Forbidden', `Missing application role: ${post.roles.join(', ')}`);
  const fields = (body ?? {}) as Record<string, unknown>;
  const scope = post.scope(fields);
  if (typeof fields.Comment !== 'string' || fields.Comment.trim() === '' || scope === 'bad')
    return defenderError(
      400,
      'InvalidRequestBody',
      'Request body is invalid: Comment and the type are required',
    );
  const running = defender.actions.find(
    (action) =>
      action.machineId === machine.id &&
      familyOf(action.type) === familyOf(post.type) &&
      (action.status === 'Pending' || action.status === 'InProgress'),
  );
  if (running)
    return defenderError(400, 'ActiveRequestAlreadyExists', `Action is already in progress (${running.id})`);
  const now = new Date().toISOString();
  const action: FakeMachineAction = {
    id: randomUUID(),
    type: post.type,
    scope,
    requestor: token.clientId,
    requestorComment: fields.Comment,
    status: 'Pending',
    machineId: machine.id,
    computerDnsName: machine.computerDnsName,
    creationDateTimeUtc: now,
    lastUpdateDateTimeUtc: now,
    cancellationRequestor: null,
    cancellationComment: null,
    errorHResult: 0,
    title: null,
    outcome: defender.nextOutcome,
  };
  defender.actions.push(action);
  return { status: 201, body: sent(action) };
}
