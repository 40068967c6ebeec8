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

/**
 * The same for the OAuth library (@node-oauth/oauth2-server, 1.3 MiB of heap): only src/oauth/oauth-library.ts and
 * the grant it loads use it, and src/oauth/oauth-endpoints.ts imports that module on the first OAuth request.
 */
it('no source file but the OAuth library module imports @node-oauth/oauth2-server statically', () => {
  const usesLibrary = (file: string) =>
    /^import (?!type )[^;]*from '@node-oauth\/oauth2-server'/m.test(readFileSync(file, 'utf8'));
  const importsLibraryModule = (file: string) =>
    /^import (?!type )[^;]*from '\.\/(oauth-library|refresh-token-grant)\.js'/m.test(
      readFileSync(file, 'utf8'),
    );
  const allowed = ['src/oauth/oauth-library.ts', 'src/oauth/refresh-token-grant.ts'];
  expect(sourceFiles('src').filter((file) => usesLibrary(file) && !allowed.includes(file))).toEqual([]);
  expect(sourceFiles('src').filter((file) => importsLibraryModule(file) && !allowed.includes(file))).toEqual(
    [],
  );
  expect(readFileSync('src/oauth/oauth-endpoints.ts', 'utf8')).toContain("import('./oauth-library.js')");
});
