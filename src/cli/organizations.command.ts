import { Command, Option } from 'commander';
import { Plan } from '../organizations/organization.entity.js';
import { createOrganization } from '../organizations/organization.service.js';
import { CliError, info, withDatabase } from './cli-database.js';
import { output } from './cli-io.js';

/** `organizations create`: a second MSP without SQL (e.g. to try cross-organization isolation). */
export function organizationsCommand(): Command {
  const command = new Command('organizations').description('create MSP organizations');

  command
    .command('create')
    .description('create an organization; prints it as JSON alone on the last line of stdout')
    .requiredOption('--slug <slug>', 'short unique name used by the other commands (--org), e.g. acme-msp')
    .requiredOption('--name <name>', 'display name')
    .addOption(
      new Option('--plan <plan>', 'plan; sets the rate limit')
        .choices(Object.values(Plan))
        .default(Plan.STARTER),
    )
    .option('--rate-limit <perMinute>', 'custom plan only: requests per minute (default unlimited)')
    .action(async (options: { slug: string; name: string; plan: Plan; rateLimit?: string }) => {
      const rate = options.rateLimit === undefined ? undefined : Number(options.rateLimit);
      if (rate !== undefined && Number.isNaN(rate))
        throw new CliError(`--rate-limit must be a number, got "${options.rateLimit}"`);
      await withDatabase(async (db) => {
        const organization = await createOrganization(db.orm.em.fork(), db.deps.clock, {
          slug: options.slug,
          name: options.name,
          plan: options.plan,
          customRateLimitPerMinute: rate,
        });
        info(
          `Created "${organization.name}" (${organization.slug}, plan ${organization.plan}). Next: ` +
            `npm run -s cli -- api-keys create --org ${organization.slug} --level admin --env test`,
        );
        const { id, slug, name, plan, rateLimitPerMinute } = organization;
        output(`${JSON.stringify({ id, slug, name, plan, rateLimitPerMinute })}\n`);
      });
    });

  return command;
}
