import { IsOptional, Length } from '../core/perf/class-validator-rules.js';
import { Field, InputType, ObjectType } from 'type-graphql';
import { PermissionLevel } from '../core/permissions.js';
import { ApiKey } from './api-key.entity.js';
import '../core/permissions.graphql-enums.js';

@InputType({ description: 'A new API key for the caller’s organization and environment' })
export class CreateApiKeyInput {
  @Field({ description: 'What the key is for, e.g. "PSA integration"' })
  @Length(1, 100)
  name!: string;

  @Field(() => PermissionLevel)
  level!: PermissionLevel;

  @Field(() => [String], {
    nullable: true,
    description: 'Enterprise plan only: IPv4/IPv6 addresses or CIDR ranges allowed to use the key',
  })
  allowedIps?: string[];
}

@InputType({
  description: 'What to change on a key; absent fields stay as they are. The level cannot change.',
})
export class UpdateApiKeyInput {
  @Field({ nullable: true })
  @IsOptional()
  @Length(1, 100)
  name?: string;

  @Field(() => [String], {
    nullable: true,
    description: 'Enterprise plan only: replaces the allowlist; an empty list lets every address use the key',
  })
  allowedIps?: string[];
}

@ObjectType({ description: 'A created key: `secret` is shown this once and never again' })
export class CreatedApiKey {
  @Field(() => ApiKey)
  apiKey!: ApiKey;

  @Field({ description: 'The full key, to send as Authorization: Bearer <secret>' })
  secret!: string;
}
