import { Field, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../core/pagination.js';
import { UserImport, UserImportRow } from './user-import.entity.js';

export const UserImportRowPage = PageOf(UserImportRow, 'UserImportRow');

@ObjectType({
  description: 'A password generated for a row of an import, shown only in the submission answer',
})
export class GeneratedImportPassword {
  @Field(() => Int)
  line!: number;

  @Field()
  userPrincipalName!: string;

  @Field()
  password!: string;
}

@ObjectType({
  description: 'The answer to a bulk user creation: the queued operation and the passwords we generated',
})
export class UserImportSubmission {
  @Field(() => UserImport)
  operation!: UserImport;

  @Field(() => [GeneratedImportPassword], {
    description: 'For rows without a Password: shown this once (the file’s own passwords are not echoed)',
  })
  generatedPasswords!: GeneratedImportPassword[];
}
