/**
 * Written against class-validator 0.15.1 (checked at start-up: ./versions.ts).
 *
 * Why: class-validator's index loads every one of its ~100 decorators, and with them validator.js's ~110
 * modules and libphonenumber-js with its full metadata (`IsPhoneNumber`): about 2.5 MiB of heap a server
 * holds for rules this schema never uses (issue #31 goal 4: each MiB live is ~1.4 MiB at the peak under load).
 * The rules we use are taken from their own files, so only those (and the validator.js functions they call)
 * are loaded. The decorators register into the same global metadata storage and `Validator` is the class the
 * index's `validate` runs, so the rules and their messages are those of the index.
 *
 * The internals: the file layout under `cjs/` (the package has no `exports` map, so deep paths resolve).
 * A release that moves a file fails loudly at start-up (module not found), never silently;
 * test/structure/lazy-modules.test.ts keeps the index (and libphonenumber-js) out of a server's modules.
 * The types are the index's own (`import type`: erased at run time).
 */
import { createRequire } from 'node:module';
import type * as ClassValidator from 'class-validator';

type Library = typeof ClassValidator;
const load = createRequire(import.meta.url);

/** `name` from class-validator's own module `file` (a path under cjs/, without `.js`). */
function rule<Name extends keyof Library>(file: string, name: Name): Library[Name] {
  return (load(`class-validator/cjs/${file}.js`) as Library)[name];
}

export const IsOptional = rule('decorator/common/IsOptional', 'IsOptional');
export const IsNotEmpty = rule('decorator/common/IsNotEmpty', 'IsNotEmpty');
export const ValidateBy = rule('decorator/common/ValidateBy', 'ValidateBy');
export const Min = rule('decorator/number/Min', 'Min');
export const Max = rule('decorator/number/Max', 'Max');
export const IsBoolean = rule('decorator/typechecker/IsBoolean', 'IsBoolean');
export const IsString = rule('decorator/typechecker/IsString', 'IsString');
export const Matches = rule('decorator/string/Matches', 'Matches');
export const MaxLength = rule('decorator/string/MaxLength', 'MaxLength');
export const Length = rule('decorator/string/Length', 'Length');

const { Validator } = load('class-validator/cjs/validation/Validator.js') as Pick<Library, 'Validator'>;
const validator = new Validator();

/** class-validator's `validate(object, options)`: what its index runs (its default container's one `Validator`). */
export function validate(
  object: object,
  options?: ClassValidator.ValidatorOptions,
): Promise<ClassValidator.ValidationError[]> {
  return validator.validate(object, options);
}
