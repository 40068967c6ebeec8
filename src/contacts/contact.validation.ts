import type { FieldProblem } from '../core/errors.js';
import { isEmailAddress } from '../users/guest.types.js';

/** Upper bounds of the contact fields (the cloud's own, where it has one). */
export const CONTACT_FIELD_MAX_LENGTH = {
  firstName: 64,
  lastName: 64,
  displayName: 256,
  /** RFC 5321: a forward path is at most 254 characters. */
  email: 254,
  company: 64,
  jobTitle: 128,
  businessPhone: 64,
  mobilePhone: 64,
  department: 64,
  manager: 256,
  street: 1024,
  city: 128,
  state: 128,
  postalCode: 40,
  country: 128,
  notes: 4000,
} as const;

export const MAX_EMAIL_ALIASES = 50;

type TextField = keyof typeof CONTACT_FIELD_MAX_LENGTH;
const REQUIRED: TextField[] = ['firstName', 'lastName', 'displayName', 'email'];
const OPTIONAL: Array<Exclude<TextField, 'firstName' | 'lastName' | 'displayName' | 'email'>> = [
  'company',
  'jobTitle',
  'businessPhone',
  'mobilePhone',
  'department',
  'manager',
  'street',
  'city',
  'state',
  'postalCode',
  'country',
  'notes',
];

/** Every stored field of a contact, checked and normalised (trimmed; blank optional text is null). */
export interface ContactValues {
  firstName: string;
  lastName: string;
  displayName: string;
  email: string;
  company: string | null;
  jobTitle: string | null;
  businessPhone: string | null;
  mobilePhone: string | null;
  department: string | null;
  showInAddressList: boolean;
  manager: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
  notes: string | null;
  emailAliases: string[];
}

export type ContactFields = Partial<Record<TextField, string | null>> & {
  showInAddressList?: boolean | null;
  emailAliases?: string[] | null;
};

/**
 * Checks a contact as given (create, full replacement, or one CSV row) and returns the values to store, or
 * every problem found. `nameOf` turns a field into the name the client used (a CSV column).
 */
export function checkContact(
  input: ContactFields,
  nameOf: (field: string) => string = (field) => field,
): { values: ContactValues; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const problem = (field: string, text: string) => problems.push({ field: nameOf(field), problem: text });
  const text = (field: TextField): string | null => {
    const value = input[field]?.trim() ?? '';
    if (value === '') return null;
    const max = CONTACT_FIELD_MAX_LENGTH[field];
    if (value.length > max) problem(field, `must be at most ${max} characters long`);
    return value;
  };
  const required = {} as Record<(typeof REQUIRED)[number], string>;
  for (const field of REQUIRED) {
    const value = text(field);
    if (value === null) problem(field, 'is required');
    required[field] = value ?? '';
  }
  const email = required.email.toLowerCase();
  if (email !== '' && email.length <= CONTACT_FIELD_MAX_LENGTH.email && !isEmailAddress(email)) {
    problem('email', 'must be an email address such as name@example.com');
  }
  const optional = {} as Record<(typeof OPTIONAL)[number], string | null>;
  for (const field of OPTIONAL) optional[field] = text(field);

  const aliases: string[] = [];
  const given = input.emailAliases ?? [];
  if (given.length > MAX_EMAIL_ALIASES)
    problem('emailAliases', `must hold at most ${MAX_EMAIL_ALIASES} addresses`);
  given.slice(0, MAX_EMAIL_ALIASES).forEach((raw, index) => {
    const alias = raw.trim().toLowerCase();
    const field = `emailAliases[${index}]`;
    if (alias.length > CONTACT_FIELD_MAX_LENGTH.email || !isEmailAddress(alias)) {
      problem(field, 'must be an email address such as name@example.com');
    } else if (alias === email) {
      problem(field, 'is the contact’s own email');
    } else if (aliases.includes(alias)) {
      problem(field, 'is given twice');
    } else aliases.push(alias);
  });

  return {
    values: {
      ...required,
      email,
      ...optional,
      showInAddressList: input.showInAddressList ?? true,
      emailAliases: aliases,
    },
    problems,
  };
}
