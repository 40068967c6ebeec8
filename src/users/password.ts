import { randomInt } from 'node:crypto';
import type { FieldProblem } from '../core/errors.js';

/** A tenant's password rules (SPEC 2.3: "must meet the tenant policy"). */
export interface PasswordRules {
  minLength: number;
  /** At least three of the four character classes below. */
  requireComplexity: boolean;
}

/** The upstream cloud refuses longer passwords, so we say so before calling it. */
export const MAX_PASSWORD_LENGTH = 256;
const COMPLEXITY_CLASSES_REQUIRED = 3;
/** Never shorter than this when we choose, even if the tenant allows shorter. */
const GENERATED_MIN_LENGTH = 16;

interface CharacterClass {
  name: string;
  test: RegExp;
  /** Characters the generator draws from; look-alikes (0/O, 1/l/I) left out for people who type it. */
  alphabet: string;
}

const CHARACTER_CLASSES: readonly CharacterClass[] = [
  { name: 'lower-case letters', test: /\p{Ll}/u, alphabet: 'abcdefghijkmnopqrstuvwxyz' },
  { name: 'upper-case letters', test: /\p{Lu}/u, alphabet: 'ABCDEFGHJKLMNPQRSTUVWXYZ' },
  { name: 'digits', test: /\p{Nd}/u, alphabet: '23456789' },
  { name: 'symbols', test: /[^\p{L}\p{Nd}\s]/u, alphabet: '!@#$%^&*()-_=+[]{}:;,.?' },
];

/** Every rule of the policy the password breaks, each as a problem of the field `password`. */
export function passwordProblems(password: string, rules: PasswordRules): FieldProblem[] {
  const problems: string[] = [];
  const length = [...password].length;
  if (length < rules.minLength) problems.push(`must be at least ${rules.minLength} characters long`);
  if (length > MAX_PASSWORD_LENGTH) problems.push(`must be at most ${MAX_PASSWORD_LENGTH} characters long`);
  if (rules.requireComplexity) {
    const present = CHARACTER_CLASSES.filter((characterClass) => characterClass.test.test(password));
    if (present.length < COMPLEXITY_CLASSES_REQUIRED) {
      problems.push(
        `must contain at least ${COMPLEXITY_CLASSES_REQUIRED} of: ${CHARACTER_CLASSES.map((c) => c.name).join(', ')} (has ${present.length})`,
      );
    }
  }
  return problems.map((problem) => ({ field: 'password', problem }));
}

function pick(alphabet: string): string {
  return alphabet[randomInt(alphabet.length)];
}

/**
 * A random password that meets any policy: one character of every class (so complexity holds
 * whatever the policy), the rest from all classes, shuffled with a CSPRNG (Fisher–Yates).
 */
export function generatePassword(rules: PasswordRules): string {
  const length = Math.min(MAX_PASSWORD_LENGTH, Math.max(rules.minLength, GENERATED_MIN_LENGTH));
  const everything = CHARACTER_CLASSES.map((c) => c.alphabet).join('');
  const characters = CHARACTER_CLASSES.map((c) => pick(c.alphabet));
  while (characters.length < length) characters.push(pick(everything));
  for (let i = characters.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [characters[i], characters[j]] = [characters[j], characters[i]];
  }
  // Never a symbol first: a password starting with = + - @ is a formula when the CSV it is handed over in is
  // opened in a spreadsheet (issue #33 item 7). A letter is always there (one of each class was drawn).
  const letter = characters.findIndex((character) => /[A-Za-z]/.test(character));
  if (!/[A-Za-z0-9]/.test(characters[0]))
    [characters[0], characters[letter]] = [characters[letter], characters[0]];
  return characters.join('');
}
