/**
 * The selection of a user's fields in every REST answer that shows a user (wire names: DECISIONS "Wire names of
 * the core records"): the user routes, the deleted users and the user-management workspace show the same shape.
 */
export const USER_FIELDS = /* GraphQL */ `
  id
  tenantId
  displayName
  firstName
  lastName
  userPrincipalName
  jobTitle
  department
  companyName
  officeLocation
  businessPhone
  mobilePhone
  employeeId
  employeeType
  managerId
  usageLocation
  accountStatus
  mfaStatus
  userType
  source
  isServiceAccount
  licenses
  lastSignInAt
  createdAt
`;
