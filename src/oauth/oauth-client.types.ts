import { Field, InputType, ObjectType } from 'type-graphql';
import { OAuthClient } from './oauth-client.entity.js';

@InputType({ description: 'A new OAuth client of the caller’s organization and environment' })
export class CreateOAuthClientInput {
  @Field({ description: 'Shown to members on the consent page' })
  name!: string;

  @Field(() => [String], {
    description: 'Where members are sent back: https, or http on localhost/127.0.0.1/[::1]; exact match',
  })
  redirectUris!: string[];
}

@ObjectType({ description: 'A registered client: `clientSecret` is shown this once and never again' })
export class CreatedOAuthClient {
  @Field(() => OAuthClient)
  client!: OAuthClient;

  @Field({ description: 'The public client_id (also client.clientId)' })
  clientId!: string;

  @Field({ description: 'Send as client_secret to /oauth/token and /oauth/revoke' })
  clientSecret!: string;
}
