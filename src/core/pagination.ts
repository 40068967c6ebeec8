import { Max, Min } from './perf/class-validator-rules.js';
import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { groupedNumber } from './grouped-number.js';
import { DEFAULT_PAGE_SIZE, EXACT_TOTAL_LIMIT, MAX_PAGE_SIZE } from './page-size.js';

export { DEFAULT_PAGE_SIZE, EXACT_TOTAL_LIMIT, MAX_PAGE_SIZE };

/** page ≥ 1 (default 1), limit 1..100 (default 25): SPEC 8.2 and DECISIONS. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 1, description: 'Page number, from 1' })
  @Min(1)
  page: number = 1;

  @Field(() => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}` })
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = DEFAULT_PAGE_SIZE;
}

@ObjectType({ description: 'Where a page stands in the whole list' })
export class PageInfo {
  @Field(() => Int)
  page!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => Int, { description: 'Number of items in the whole list' })
  total!: number;

  @Field(() => Boolean, {
    nullable: true,
    description: `true when \`total\` is the planner's estimate (lists of more than ${groupedNumber(EXACT_TOTAL_LIMIT)} items); false or null: exact`,
  })
  totalEstimated?: boolean;
}

export interface Page<T> {
  items: T[];
  pageInfo: PageInfo;
}

/** One generic page type per item type, e.g. `UserPage { items: [User!]!, pageInfo: PageInfo! }`. */
export function PageOf<T extends object>(itemClass: ClassType<T>, itemName: string) {
  @ObjectType(`${itemName}Page`)
  abstract class PageClass implements Page<T> {
    @Field(() => [itemClass])
    items!: T[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;
  }
  return PageClass;
}

export function pageOffset({ page, limit }: PageArgs): number {
  return (page - 1) * limit;
}

@ObjectType({ description: 'Where a keyset page stands: no total, a cursor to the next page' })
export class CursorPageInfo {
  @Field(() => Int)
  limit!: number;

  @Field()
  hasMore!: boolean;

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last' })
  nextCursor!: string | null;
}
