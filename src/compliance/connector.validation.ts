import { InvalidRequestError, type FieldProblem } from '../core/errors.js';
import {
  CONNECTOR_SOURCES,
  MAX_SCHEDULE_HOURS,
  MAX_USER_MAPPINGS,
  MIN_SCHEDULE_HOURS,
} from './connector-catalog.js';
import type { ConnectorUserMapping } from './connector.entity.js';
import { ConnectorCategory, UnmatchedHandling, UserMappingStrategy } from './connector.enums.js';
import type { UserMappingInput } from './connector.types.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkName(name: string, problems: FieldProblem[]): void {
  if (!name.trim() || name.length > 200) problems.push({ field: 'name', problem: '1 to 200 characters' });
}

export function checkSourceType(
  category: ConnectorCategory,
  sourceType: string,
  problems: FieldProblem[],
): void {
  if (!CONNECTOR_SOURCES[category][sourceType])
    problems.push({
      field: 'sourceType',
      problem: `a ${category} connector imports from one of: ${Object.keys(CONNECTOR_SOURCES[category]).join(', ')}`,
    });
}

/** The credential values, every required field a non-empty string, no unknown field. */
export function checkCredentials(
  category: ConnectorCategory,
  sourceType: string,
  credentials: Record<string, unknown>,
  problems: FieldProblem[],
): Record<string, string> {
  const required = CONNECTOR_SOURCES[category][sourceType];
  const checked: Record<string, string> = {};
  // An unknown source type is refused by checkSourceType, naming the allowed ones; its credentials cannot be
  // judged, so nothing untrue ("not a credential of Slack") is said about them.
  if (!required) return checked;
  for (const field of required) {
    const value = credentials[field];
    if (typeof value !== 'string' || !value.trim() || value.length > 4096)
      problems.push({ field: `credentials.${field}`, problem: `${sourceType} needs ${field} (a string)` });
    else checked[field] = value;
  }
  for (const field of Object.keys(credentials))
    if (!required.includes(field))
      problems.push({ field: `credentials.${field}`, problem: `not a credential of ${sourceType}` });
  return checked;
}

export function checkSchedule(hours: number, problems: FieldProblem[]): void {
  if (!Number.isInteger(hours) || hours < MIN_SCHEDULE_HOURS || hours > MAX_SCHEDULE_HOURS)
    problems.push({
      field: 'scheduleHours',
      problem: `${MIN_SCHEDULE_HOURS} to ${MAX_SCHEDULE_HOURS} hours`,
    });
}

export function checkUserMapping(
  input: UserMappingInput | undefined,
  problems: FieldProblem[],
): ConnectorUserMapping {
  const mapping: ConnectorUserMapping = {
    strategy: input?.strategy ?? UserMappingStrategy.EMAIL,
    mappings: (input?.mappings ?? []).map((entry) => ({ ...entry })),
    unmatched: input?.unmatched ?? UnmatchedHandling.SKIP,
    fallbackMailbox: input?.fallbackMailbox ?? null,
  };
  if (mapping.strategy === UserMappingStrategy.MAPPING_TABLE && mapping.mappings.length === 0)
    problems.push({ field: 'userMapping.mappings', problem: 'a mapping table needs at least one pair' });
  if (mapping.mappings.length > MAX_USER_MAPPINGS)
    problems.push({ field: 'userMapping.mappings', problem: `at most ${MAX_USER_MAPPINGS} pairs` });
  mapping.mappings.forEach((entry, index) => {
    if (!entry.sourceIdentity.trim())
      problems.push({ field: `userMapping.mappings.${index}.sourceIdentity`, problem: 'must not be empty' });
    if (!EMAIL.test(entry.userPrincipalName))
      problems.push({
        field: `userMapping.mappings.${index}.userPrincipalName`,
        problem: 'must be user@domain',
      });
  });
  if (
    mapping.unmatched === UnmatchedHandling.IMPORT_TO_FALLBACK_MAILBOX &&
    !EMAIL.test(mapping.fallbackMailbox ?? '')
  )
    problems.push({
      field: 'userMapping.fallbackMailbox',
      problem: 'the fallback mailbox address (user@domain)',
    });
  return mapping;
}

export function throwIfProblems(problems: FieldProblem[]): void {
  if (problems.length) throw new InvalidRequestError('The connector is not valid', problems);
}
