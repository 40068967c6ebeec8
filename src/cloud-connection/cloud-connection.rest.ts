import type { RouteDefinition } from '../../rest-adapter/route.js';

/** The secret is write-only: no document selects it (the view has only `clientSecretSet`). */
const CLOUD_CONNECTION_FIELDS = /* GraphQL */ `
  connected
  provider
  partnerTenantId
  clientId
  clientSecretSet
  providerActive
  lastTest { succeeded at message }
  grantedPermissions
  adminConsentUrl
  capabilities { capability available api permissions missingPermissions reason }
  connectedAt
`;

const GET_CLOUD_CONNECTION = /* GraphQL */ `
  query GetCloudConnection {
    cloudConnection { ${CLOUD_CONNECTION_FIELDS} }
  }
`;

const CONNECT_CLOUD = /* GraphQL */ `
  mutation ConnectCloud($input: ConnectCloudInput!) {
    connectCloud(input: $input) { ${CLOUD_CONNECTION_FIELDS} }
  }
`;

const TEST_CLOUD_CONNECTION = /* GraphQL */ `
  mutation TestCloudConnection {
    testCloudConnection { ${CLOUD_CONNECTION_FIELDS} }
  }
`;

const DISCONNECT_CLOUD = /* GraphQL */ `
  mutation DisconnectCloud {
    disconnectCloud { ${CLOUD_CONNECTION_FIELDS} }
  }
`;

export const CLOUD_CONNECTION_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/settings/cloud-connection',
    operation: GET_CLOUD_CONNECTION,
    summary: "the live environment's cloud connection, its last test and what is available (live Admin key)",
  },
  {
    method: 'PUT',
    path: '/settings/cloud-connection',
    operation: CONNECT_CLOUD,
    body: 'input',
    summary:
      'connect the live environment to Microsoft 365 (tested first; 400 naming what failed, nothing saved) ' +
      'or to the simulated cloud (live Admin key)',
  },
  {
    method: 'POST',
    path: '/settings/cloud-connection/test',
    operation: TEST_CLOUD_CONNECTION,
    summary:
      'test the saved connection again and record the outcome as its last test (409 without one; live Admin key)',
  },
  {
    method: 'DELETE',
    path: '/settings/cloud-connection',
    operation: DISCONNECT_CLOUD,
    summary: 'remove the cloud connection (idempotent: answers the not-connected state; live Admin key)',
  },
];
