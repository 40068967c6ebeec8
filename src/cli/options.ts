import { Option } from 'commander';
import { ENVIRONMENT_CHOICES } from './cli-database.js';

/** `--org <slug>`, mandatory on every command that acts in an organization. */
export const orgOption = (): Option =>
  new Option('--org <slug>', 'organization slug, e.g. demo').makeOptionMandatory();

/** `--env live|test`; what the environment means differs per command, hence the description. */
export const envOption = (description: string): Option =>
  new Option('--env <env>', description).choices(ENVIRONMENT_CHOICES);

/** For repeatable options (`--redirect-uri A --redirect-uri B`). */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];
