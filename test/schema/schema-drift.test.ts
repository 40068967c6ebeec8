import { readFileSync } from 'node:fs';
import { printSchemaFile, SCHEMA_FILE } from '../../src/schema-file.js';

describe('schema/schema.graphql', () => {
  it('matches the schema the code builds (run `npm run schema:emit` after changing resolvers or types)', async () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(await printSchemaFile());
  });
});
