import type { MigrationObject } from '@mikro-orm/core';

/**
 * Every migration, in order. Listed explicitly (rather than found by a glob) so that the same
 * list works from TypeScript under jest and from the compiled JavaScript in dist/.
 */
export const MIGRATIONS: MigrationObject[] = [];
