import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * msal-node is the largest module of the Microsoft 365 provider (about 16 MiB resident, issue #31): it is
 * loaded on the first token request (src/cloud/microsoft365/graph-token.ts), so a server without a Microsoft 365
 * connection never holds it. A static import anywhere would load it at start-up again.
 */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

it('no source file imports @azure/msal-node statically (only `import type` and the lazy loader)', () => {
  const offenders = sourceFiles('src').filter((file) =>
    /^import (?!type )[^;]*from '@azure\/msal-node'/m.test(readFileSync(file, 'utf8')),
  );
  expect(offenders).toEqual([]);
  expect(readFileSync('src/cloud/microsoft365/graph-token.ts', 'utf8')).toContain(
    "import('@azure/msal-node')",
  );
});
