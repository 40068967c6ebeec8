import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { MAX_CSV_ROWS } from './contact-csv.js';

/** Mail contacts (SPEC 2.6 "Contact", 4.2). */
const CONTACT_FIELDS = /* GraphQL */ `
  id
  tenantId
  displayName
  firstName
  lastName
  email
  company
  jobTitle
  businessPhone
  mobilePhone
  department
  showInAddressList
  galVisibility
  manager
  street
  city
  state
  postalCode
  country
  notes
  emailAliases
  source
  createdAt
  updatedAt
`;

const LIST_CONTACTS = /* GraphQL */ `
  query ListContacts($tenantId: UUID!, $search: String, $page: Int, $limit: Int) {
    contacts(tenantId: $tenantId, search: $search, page: $page, limit: $limit) {
      items { ${CONTACT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const CREATE_CONTACT = /* GraphQL */ `
  mutation CreateContact($tenantId: UUID!, $input: ContactInput!) {
    createContact(tenantId: $tenantId, input: $input) { ${CONTACT_FIELDS} }
  }
`;

const UPDATE_CONTACT = /* GraphQL */ `
  mutation UpdateContact($tenantId: UUID!, $id: UUID!, $input: ContactInput!) {
    updateContact(tenantId: $tenantId, id: $id, input: $input) { ${CONTACT_FIELDS} }
  }
`;

const DELETE_CONTACT = /* GraphQL */ `
  mutation DeleteContact($tenantId: UUID!, $id: UUID!) {
    deleteContact(tenantId: $tenantId, id: $id) { ${CONTACT_FIELDS} }
  }
`;

const IMPORT_CONTACTS = /* GraphQL */ `
  mutation ImportContacts($tenantId: UUID!, $csv: String!) {
    importContacts(tenantId: $tenantId, csv: $csv) {
      created
      skipped
      failed
      rows {
        line
        email
        status
        contactId
        errors {
          field
          problem
        }
      }
    }
  }
`;

/**
 * Mail contacts (SPEC 2.6 "Contact", 4.2 identity) in the tenant named by X-Tenant-Id (or ?tenantId=). Reading
 * needs `read:users`, creating and changing `write:users`, DELETE an Admin key (or `write:users` on an access token).
 */
export const CONTACT_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/identity/contacts',
    operation: LIST_CONTACTS,
    tenant: 'tenantId',
    query: { ...PAGE_QUERY, search: { type: 'string' } },
    summary: 'list mail contacts by display name (A to Z); ?search= matches part of a name or the address',
  },
  {
    method: 'POST',
    reachesCloud: true,
    path: '/identity/contacts',
    operation: CREATE_CONTACT,
    tenant: 'tenantId',
    body: 'input',
    status: 201,
    summary:
      'create a contact {firstName, lastName, displayName, email, company?, jobTitle?, businessPhone?, mobilePhone?, department?, showInAddressList? (default true), manager?, street?, city?, state?, postalCode?, country?, notes?, emailAliases?}; 409 when the address is already a contact',
  },
  {
    method: 'PUT',
    reachesCloud: true,
    path: '/identity/contacts/:id',
    operation: UPDATE_CONTACT,
    tenant: 'tenantId',
    params: { id: 'id' },
    body: 'input',
    summary:
      'replace a contact (same body as create; an optional field left out is cleared); 409 when the address is another contact’s',
  },
  {
    method: 'DELETE',
    reachesCloud: true,
    path: '/identity/contacts/:id',
    operation: DELETE_CONTACT,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: 'delete a contact for good (Admin key)',
  },
  {
    method: 'POST',
    reachesCloud: true,
    path: '/identity/contacts/bulk',
    operation: IMPORT_CONTACTS,
    tenant: 'tenantId',
    body: 'spread',
    csvBody: 'csv',
    summary: `import contacts from CSV (Content-Type: text/csv, or JSON {csv}): header DisplayName, EmailAddress, FirstName, LastName[, Company, JobTitle, BusinessPhone], at most ${MAX_CSV_ROWS} rows; an invalid row refuses the file (400, nothing written), addresses already present are skipped`,
  },
];
