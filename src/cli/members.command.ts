import { Command, Option } from 'commander';
import { MemberRole } from '../members/member.entity.js';
import { MemberService } from '../members/member.service.js';
import { MIN_PASSWORD_LENGTH } from '../members/member.password.js';
import { findOrganization, info, withDatabase } from './cli-database.js';
import { orgOption } from './options.js';
import { output } from './cli-io.js';

/** `members create`: people who sign in on the OAuth consent page. The rules are MemberService's. */
export function membersCommand(): Command {
  const command = new Command('members').description(
    'members: people who sign in to authorize OAuth clients',
  );

  command
    .command('create')
    .description('add a member; prints {"id","email","role"} as JSON on the last line of stdout')
    .addOption(orgOption())
    .requiredOption('--email <email>', 'sign-in email (stored in lower case)')
    .requiredOption(
      '--password <password>',
      `at least ${MIN_PASSWORD_LENGTH} characters (stored as a salted scrypt hash)`,
    )
    .addOption(
      new Option('--role <role>', 'owner and admin may grant the admin scope')
        .choices(Object.values(MemberRole))
        .default(MemberRole.MEMBER),
    )
    .action(async (options: { org: string; email: string; password: string; role: MemberRole }) => {
      await withDatabase(async (db) => {
        const organization = await findOrganization(db.orm, options.org);
        const member = await new MemberService({
          em: db.orm.em.fork(),
          scope: { organizationId: organization.id },
          clock: db.deps.clock,
        }).create({ email: options.email, password: options.password, role: options.role });
        info(`Created ${member.role} ${member.email} in ${organization.slug}.`);
        output(`${JSON.stringify({ id: member.id, email: member.email, role: member.role })}\n`);
      });
    });

  return command;
}
