import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { lastLine, runCli } from '../helpers/cli.js';
import { ServerProcess } from '../helpers/server-process.js';
import { createTestDatabase } from '../helpers/test-app.js';

/**
 * The README's first requests, run as written (bash and curl) against a started server: the `sh` blocks
 * are read from README.md and docs/api.md, only the origin is changed to the test server's.
 */
let server: ServerProcess;
let key: string;

/** The first ```sh block of `file` that contains `marker`. */
function shellBlock(file: string, marker: string): string {
  const blocks = [...readFileSync(file, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
  const block = blocks.find((text) => text.includes(marker));
  if (!block) throw new Error(`${file} has no sh block with ${marker}`);
  return block;
}

function runShell(script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const local = script.replaceAll('http://localhost:4000', server.baseUrl);
  return new Promise((resolve) => {
    // --norc: Node's stdio pipes are sockets, and Debian's bash sources /etc/bash.bashrc for a shell whose stdin
    // is a socket at SHLVL 1 (taken for rsh), which fails under -u.
    execFile(
      'bash',
      ['--norc', '-euo', 'pipefail', '-c', local],
      { env: { ...process.env, KEY: key, BASE: server.baseUrl }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  // As in the README: the key is the last line printed (the first command seeds the demo organization).
  const created = await runCli(
    databaseUrl,
    'api-keys',
    'create',
    '--org',
    'demo',
    '--level',
    'admin',
    '--env',
    'test',
  );
  key = lastLine(created.stdout);
  server = await ServerProcess.start(databaseUrl);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe("the README's curl sequence against a started server", () => {
  it('REST: tenants, a tenant’s users, a sync (202)', async () => {
    const result = await runShell(shellBlock('README.md', 'v1/tenants?limit=5'));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // curl prints each body without a newline: one JSON envelope after the other.
    const answers = result.stdout
      .replace(/}\s*{"success"/g, '}\n{"success"')
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(answers).toHaveLength(3);
    expect(answers[0]).toMatchObject({ success: true, meta: { page: 1, limit: 5 } });
    expect(answers[1]).toMatchObject({ success: true, meta: { limit: 3 } });
    expect(answers[2]).toMatchObject({
      success: true,
      data: expect.objectContaining({ status: expect.any(String) }),
    });
  });

  it('GraphQL over POST (README) and over GET with the CSRF preflight header (docs/api.md)', async () => {
    const post = await runShell(shellBlock('README.md', '$BASE/graphql -H'));
    expect(post.code).toBe(0);
    const posted = JSON.parse(post.stdout) as {
      data: { tenants: { items: unknown[]; pageInfo: { total: number } } };
    };
    expect(posted.data.tenants.items).toHaveLength(3);

    const get = await runShell(shellBlock('docs/api.md', 'apollo-require-preflight'));
    expect(get.code).toBe(0);
    expect(JSON.parse(get.stdout)).toMatchObject({
      data: { tenants: { items: [{ name: expect.any(String) }] } },
    });
    // Without the header Apollo's CSRF protection refuses the GET.
    const refused = await runShell(
      `curl -s -o /dev/null -w '%{http_code}' -G http://localhost:4000/graphql -H "Authorization: Bearer $KEY" --data-urlencode 'query={ tenants { items { name } } }'`,
    );
    expect(refused.stdout).toBe('400');
  });
});
