/**
 * The GraphQL names and descriptions of the enums of dlp.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import { DlpPolicyAction, DlpActivity, DlpActionTaken } from './dlp.enums.js';

registerEnumType(DlpPolicyAction, {
  name: 'DlpPolicyAction',
  description: 'Audit only, Block with override, Block',
});

registerEnumType(DlpActivity, { name: 'DlpActivity', description: 'An activity endpoint DLP monitors' });

registerEnumType(DlpActionTaken, {
  name: 'DlpActionTaken',
  description:
    'Audited (allowed and recorded), Blocked, Overridden (a block the user overrode with a reason)',
});
