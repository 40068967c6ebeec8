/**
 * Issue #33 item 6: the checked-in OpenAPI document passes Redocly's recommended rules (redocly.yaml; the three
 * findings accepted on purpose are in .redocly.lint-ignore.yaml with their reasons), and says what the server
 * does: X-RateLimit-Reset is a Unix time, every `limit` is 1 to 100 with default 25, and it has a license.
 * (test/helpers/openapi-validator.ts checks every answer of the suite against the same statements.)
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

type Json = Record<string, unknown>;
const document = JSON.parse(readFileSync('schema/openapi.json', 'utf8')) as {
  info: { license?: { name: string } };
  paths: Record<string, Record<string, { parameters?: Array<Json & { schema: Json }> }>>;
  components: { headers: Record<string, { description: string }> };
};

describe('the OpenAPI document', () => {
  it('passes Redocly lint with no error and no warning', async () => {
    const cli = path.resolve('node_modules/@redocly/cli/bin/cli.js');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      SCARF_ANALYTICS: 'false',
    };
    delete env.NODE_OPTIONS;
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [cli, 'lint', 'schema/openapi.json', '--format=json'],
        { env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
        (error, out, err) => (error && !out ? reject(new Error(err)) : resolve(out)),
      ),
    );
    const report = JSON.parse(stdout) as {
      totals: Json;
      problems: Array<{ ruleId: string; message: string }>;
    };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0, ignored: 3 });
  }, 60_000);

  it('states the paging bounds of every list, the meaning of X-RateLimit-Reset and a license', () => {
    const limits = Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .flatMap((operation) => operation.parameters ?? [])
      .filter((parameter) => parameter.name === 'limit' && parameter.in === 'query');
    expect(limits.length).toBeGreaterThan(35);
    for (const limit of limits) expect(limit.schema).toMatchObject({ minimum: 1, maximum: 100, default: 25 });
    expect(document.components.headers['X-RateLimit-Reset'].description).toMatch(/Unix time/);
    expect(document.info.license?.name).toBeTruthy();
  });
});
