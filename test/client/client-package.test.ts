/**
 * Issue #33 item 4: the typed client works outside the repository. `npm pack` builds it (JavaScript and
 * declarations), the tarball is installed into a throwaway project in a temporary folder — its two dependencies
 * from npm's cache, pinned by the repository's lockfile, so no registry is needed — and that project
 * type-checks a TypeScript file against the package and runs a plain Node script against a live server.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

const CLIENT_DIR = path.resolve('clients/typescript');
const TSC = path.resolve('node_modules/typescript/bin/tsc');
let app: SharedApp;
let org: OrganizationWithKeys;
let project: string;

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    delete childEnv.NODE_OPTIONS; // Jest's --experimental-vm-modules is not the user's
    execFile(command, args, { cwd, env: childEnv, timeout: 120_000 }, (error, stdout, stderr) =>
      error
        ? reject(new Error(`${command} ${args.join(' ')}: ${stderr || stdout}`))
        : resolve({ stdout, stderr }),
    );
  });
}

/** The throwaway project's lockfile: the packed client plus its dependencies as the repository locked them. */
function lockfile(tarball: string, dependencies: Record<string, string>): object {
  const repositoryLock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
    packages: Record<string, { version: string; dependencies?: Record<string, string>; dev?: boolean }>;
  };
  const packages: Record<string, object> = {
    '': { name: 'throwaway', dependencies: { '@msp-admin/api-client': `file:${tarball}` } },
    'node_modules/@msp-admin/api-client': {
      version: '1.0.0-beta',
      resolved: `file:${tarball}`,
      dependencies,
    },
  };
  const pending = Object.keys(dependencies);
  while (pending.length) {
    const name = pending.pop()!;
    if (packages[`node_modules/${name}`]) continue;
    const { dev: _dev, ...entry } = repositoryLock.packages[`node_modules/${name}`];
    packages[`node_modules/${name}`] = entry;
    pending.push(...Object.keys(entry.dependencies ?? {}));
  }
  return { name: 'throwaway', lockfileVersion: 3, requires: true, packages };
}

beforeAll(async () => {
  ({ app, org } = await sharedSuite());
  await createTenant(app, org.scope, { name: 'Packed Client Co' });
  project = mkdtempSync(path.join(os.tmpdir(), 'msp-client-'));
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', project], CLIENT_DIR);
  const tarball = path.join(project, stdout.trim().split('\n').pop()!);
  const manifest = JSON.parse(readFileSync(path.join(CLIENT_DIR, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({
      name: 'throwaway',
      private: true,
      type: 'module',
      dependencies: { '@msp-admin/api-client': `file:${tarball}` },
    }),
  );
  writeFileSync(
    path.join(project, 'package-lock.json'),
    JSON.stringify(lockfile(tarball, manifest.dependencies)),
  );
  await run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], project);
}, 180_000);
afterAll(async () => {
  await app.stop();
  rmSync(project, { recursive: true, force: true });
});

describe('the packed client in a project of its own', () => {
  it('ships JavaScript, declarations and the README, no TypeScript sources', async () => {
    const installed = path.join(project, 'node_modules/@msp-admin/api-client');
    const files = (await run('find', ['.', '-type', 'f'], installed)).stdout
      .split('\n')
      .filter(Boolean)
      .sort();
    expect(files).toEqual(
      expect.arrayContaining(['./README.md', './dist/index.js', './dist/index.d.ts', './dist/schema.d.ts']),
    );
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
  });

  it('type-checks a TypeScript file that uses it', async () => {
    writeFileSync(
      path.join(project, 'check.ts'),
      `import { createMspClient, unwrap, ApiError, type components } from '@msp-admin/api-client';
const client = createMspClient({ baseUrl: 'http://127.0.0.1:1', token: 'svc_sk_test_x' });
export async function names(): Promise<string[]> {
  const body = unwrap(await client.GET('/v1/tenants', { params: { query: { limit: 5 } } }));
  const health: components['schemas']['TenantHealth'] | undefined = body.data[0]?.health;
  void health;
  return body.data.map((tenant) => tenant.name);
}
// @ts-expect-error: not a path of the API
void client.GET('/v1/no-such-path');
export const isApiError = (error: unknown) => error instanceof ApiError && error.code === 'NOT_FOUND';
`,
    );
    await run(
      process.execPath,
      [
        TSC,
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        'check.ts',
      ],
      project,
    );
  }, 60_000);

  it('runs from plain Node: a first call, paging, an ApiError and a webhook check', async () => {
    const secret = `whsec_${Buffer.from('a'.repeat(32)).toString('base64')}`;
    const body = JSON.stringify({
      event: 'webhook.test',
      severity: 'info',
      tenant: null,
      details: {},
      timestamp: new Date().toISOString(),
      actionUrl: '',
    });
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
    const signature = new Webhook(secret).sign(headers['webhook-id'], new Date(), body);
    writeFileSync(
      path.join(project, 'main.mjs'),
      `import { createMspClient, paginate, unwrap, ApiError, verifyWebhook } from '@msp-admin/api-client';
const client = createMspClient({ baseUrl: process.env.MSP_API_URL, token: process.env.MSP_API_KEY });
const first = unwrap(await client.GET('/v1/tenants', { params: { query: { limit: 1 } } }));
const names = [];
for await (const tenant of paginate((page) => client.GET('/v1/tenants', { params: { query: { page, limit: 1 } } })))
  names.push(tenant.name);
let code = null;
try {
  unwrap(await client.GET('/v1/tenants/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } }));
} catch (error) {
  code = error instanceof ApiError ? error.code : String(error);
}
const event = verifyWebhook(process.env.SECRET, process.env.BODY, JSON.parse(process.env.HEADERS));
console.log(JSON.stringify({ total: first.meta.total, names, code, event: event.event }));
`,
    );
    const { stdout } = await run(process.execPath, ['main.mjs'], project, {
      MSP_API_URL: app.baseUrl,
      MSP_API_KEY: org.keys.read,
      SECRET: secret,
      BODY: body,
      HEADERS: JSON.stringify({ ...headers, 'webhook-signature': signature }),
    });
    expect(JSON.parse(stdout)).toEqual({
      total: 1,
      names: ['Packed Client Co'],
      code: 'NOT_FOUND',
      event: 'webhook.test',
    });
  }, 60_000);
});
