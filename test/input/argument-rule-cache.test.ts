import 'reflect-metadata';
import { InvalidRequestError } from '../../src/core/errors.js';
import { PageArgs } from '../../src/core/pagination.js';
import { validateArgumentsTogether } from '../../src/http/input/argument-rules.js';

/**
 * src/http/input/argument-rules.ts keeps the rule problems of argument objects of primitive values by class and
 * values: a repeated argument object gives the same answer as the first, whichever came first.
 */
const page = (values: Partial<PageArgs>) => Object.assign(new PageArgs(), values);

async function problemsOf(args: PageArgs): Promise<unknown> {
  try {
    await validateArgumentsTogether(args, PageArgs);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return (error as InvalidRequestError).extensions.details;
  }
}

it('answers a repeated argument object as the first time, valid or not', async () => {
  const bad = await problemsOf(page({ limit: 500 }));
  expect(JSON.stringify(bad)).toContain('limit');
  for (let i = 0; i < 3; i++) {
    expect(await problemsOf(page({ limit: 500 }))).toEqual(bad);
    expect(await problemsOf(page({ limit: 25 }))).toEqual([]);
  }
  // Other values are validated on their own, not answered from a neighbour's entry.
  expect(JSON.stringify(await problemsOf(page({ page: 0, limit: 500 })))).toMatch(/page.*limit|limit.*page/);
  expect(await problemsOf(page({ page: 2, limit: 100 }))).toEqual([]);
});

it('hands out a copy: changing an answer does not change the next one', async () => {
  const first = (await problemsOf(page({ limit: 0 }))) as { fields: Array<{ problem: string }> };
  first.fields[0].problem = 'changed';
  const second = (await problemsOf(page({ limit: 0 }))) as { fields: Array<{ problem: string }> };
  expect(second.fields[0].problem).not.toBe('changed');
});
