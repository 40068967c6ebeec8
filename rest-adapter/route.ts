/**
 * A REST route is data: which GraphQL operation it runs and how the request maps onto the
 * operation's variables. One generic handler (handler.ts) serves every route.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How a query-string value is turned into a variable. `dateTime` and `dateTimeUntil` pass a date-time through
 * and read a date alone (YYYY-MM-DD) as its UTC day (handler.ts): `dateTime` as the day's start (a lower bound,
 * or a "before"), `dateTimeUntil` as the next day's start, for an exclusive upper bound that then takes in the
 * whole day named. (Where a service compares an upper bound inclusively, `<=`, a record stamped exactly at the
 * next midnight is taken in too: one instant, rather than refusing a plain date.)
 */
export type QueryParamType = 'int' | 'string' | 'boolean' | 'stringList' | 'dateTime' | 'dateTimeUntil';

export interface QueryParamMapping {
  /** The operation's variable; defaults to the parameter's own name. */
  variable?: string;
  type: QueryParamType;
}

export interface RouteDefinition {
  method: HttpMethod;
  /** Express path, relative to the mount point (/v1 or /api). */
  path: string;
  /** A GraphQL document with exactly one operation whose single root field is the result. */
  operation: string;
  /** Path parameter → variable. A path value the variable's type refuses (not a UUID) answers 404. */
  params?: Record<string, string>;
  /** Query parameter → variable and type. Other query parameters are ignored. */
  query?: Record<string, QueryParamMapping>;
  /**
   * Where the JSON body goes: a variable name (the whole body becomes that input object),
   * or 'spread' (each top-level body field is a variable of its own). Any method may take a body, GET
   * included (SPEC 4.3 sends the recommendation filters as a GET body). With 'spread', a field that the
   * route also maps from the query string may come either way; when both give it, the query string wins.
   */
  body?: string | 'spread';
  /**
   * A `Content-Type: text/csv` body (parsed for this route only, up to CSV_BODY_LIMIT_BYTES) becomes this
   * String variable as raw text; any other body is handled by `body` as usual.
   */
  csvBody?: string;
  /**
   * The route acts inside one tenant, selected by the header `X-Tenant-Id` or the query parameter
   * `tenantId` (DECISIONS "Identity and tenancy"): the name of the operation's variable (a non-null UUID)
   * that receives it. Missing: 400 naming `X-Tenant-Id`; not a UUID: 404 (like a path id); a tenant of
   * another organization: 404 from the service.
   */
  tenant?: string;
  /** Other headers → variables; a header may also be given as a query parameter. */
  headers?: Record<string, { variable: string; queryAlias?: string }>;
  /** A field of the result sent back as the ETag header (a record's version, for If-Match). */
  etag?: string;
  /**
   * Fields of the root result that describe the answer rather than being it (the portal's `dataAsOf`): moved
   * from `data` into the envelope's `meta`.
   */
  metaFields?: string[];
  /**
   * A GET that can refuse by state (409 CONFLICT, e.g. a deleted user's files asked for an active user): the
   * OpenAPI document lists 409 on every other method already (rest-adapter/openapi/operation.ts).
   */
  conflictOnRead?: true;
  /**
   * Acts on the connected cloud, which may have no API for it in the live environment (501 NOT_SUPPORTED,
   * listed in the OpenAPI document; src/cloud/microsoft365/graph-capabilities.ts says which areas).
   */
  reachesCloud?: true;
  /** Success status; 200 unless said (201 for creations, 202 for started jobs). */
  status?: number;
  summary: string;
}

/** A route table and the path prefix it is served under (the OpenAPI document names full paths). */
export interface RouteMount {
  mount: string;
  routes: readonly RouteDefinition[];
}

/** DECISIONS "Request bodies over 1 MiB (CSV uploads: 10 MiB)". */
export const CSV_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/** How a tenant-scoped route is told its tenant (`tenant` above). */
export const TENANT_HEADER = 'X-Tenant-Id';
export const TENANT_QUERY_PARAM = 'tenantId';

export const PAGE_QUERY: Record<string, QueryParamMapping> = {
  page: { type: 'int' },
  limit: { type: 'int' },
};
