/**
 * The selection of every audit field (`deletedBy`, `invitedBy`, `author`, ...): the readable actor that the
 * stored principal string resolves to (src/actors). One constant, so every route shows the same shape.
 */
export const ACTOR_FIELDS = /* GraphQL */ `
  {
    type
    id
    name
    email
    oauthClientName
  }
`;
