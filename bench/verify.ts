/**
 * Before measuring, one request to each target: all must answer 200, and the three must carry the same
 * users (ids in order, total, field names, values). A faster floor that returned less would prove nothing.
 */
export interface PageSnapshot {
  items: Array<Record<string, unknown>>;
  total: number;
}

interface RestEnvelope {
  success?: boolean;
  data?: Array<Record<string, unknown>>;
  meta?: { total?: number };
}

interface GraphqlUsersResponse {
  data?: { users?: { items?: Array<Record<string, unknown>>; pageInfo?: { total?: number } } };
  errors?: unknown[];
}

async function fetchJson(name: string, url: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok)
    throw new Error(
      `${name}: ${init.method ?? 'GET'} ${url} answered ${response.status}: ${text.slice(0, 500)}`,
    );
  return JSON.parse(text) as unknown;
}

export async function restSnapshot(
  name: string,
  url: string,
  headers: Record<string, string>,
): Promise<PageSnapshot> {
  const body = (await fetchJson(name, url, { headers })) as RestEnvelope;
  if (!body.success || !Array.isArray(body.data) || typeof body.meta?.total !== 'number')
    throw new Error(`${name}: not a list envelope: ${JSON.stringify(body).slice(0, 500)}`);
  return { items: body.data, total: body.meta.total };
}

export async function graphqlSnapshot(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<PageSnapshot> {
  const response = (await fetchJson('GraphQL', url, {
    method: 'POST',
    headers,
    body,
  })) as GraphqlUsersResponse;
  const users = response.data?.users;
  if (response.errors || !Array.isArray(users?.items) || typeof users.pageInfo?.total !== 'number')
    throw new Error(`GraphQL: unexpected answer: ${JSON.stringify(response).slice(0, 500)}`);
  return { items: users.items, total: users.pageInfo.total };
}

/** Values compared as the client sees them; license lists as sets (their order is not part of the contract). */
function normalised(item: Record<string, unknown>): string {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(item).sort()) {
    const value = item[key];
    copy[key] = key === 'licenses' && Array.isArray(value) ? [...value].map(String).sort() : value;
  }
  return JSON.stringify(copy);
}

/**
 * Differences between two snapshots, described for a person (empty when they match). Values are compared
 * only when both speak REST: GraphQL spells enum values in UPPER_SNAKE, REST as SPEC does.
 */
export function differences(
  leftName: string,
  left: PageSnapshot,
  rightName: string,
  right: PageSnapshot,
  compareValues: boolean,
): string[] {
  const problems: string[] = [];
  if (left.total !== right.total)
    problems.push(`total: ${leftName} ${left.total}, ${rightName} ${right.total}`);
  if (left.items.length !== right.items.length)
    problems.push(`items: ${leftName} ${left.items.length}, ${rightName} ${right.items.length}`);
  const leftKeys = Object.keys(left.items[0] ?? {})
    .sort()
    .join(',');
  const rightKeys = Object.keys(right.items[0] ?? {})
    .sort()
    .join(',');
  if (leftKeys !== rightKeys) problems.push(`fields: ${leftName} [${leftKeys}], ${rightName} [${rightKeys}]`);
  const idsOf = (snapshot: PageSnapshot) => snapshot.items.map((item) => item.id).join(',');
  if (idsOf(left) !== idsOf(right))
    problems.push(`ids or their order differ between ${leftName} and ${rightName}`);
  if (!compareValues) return problems;
  const firstDifferent = left.items.findIndex(
    (item, index) => normalised(item) !== normalised(right.items[index] ?? {}),
  );
  if (leftKeys === rightKeys && firstDifferent >= 0)
    problems.push(
      `item ${firstDifferent}: ${leftName} ${normalised(left.items[firstDifferent])} vs ${rightName} ${normalised(right.items[firstDifferent] ?? {})}`,
    );
  return problems;
}
