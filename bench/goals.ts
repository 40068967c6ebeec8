import type { LoadTable } from './report.js';
import type { PortalScaleResults } from './portal-scale.js';
import type { DeliveryResults } from './webhook-delivery.js';
import type { StatementCounts } from './sql-count.js';

/**
 * Issue #31's goals, as ratios within one interleaved run (the machine is shared; absolute latencies are not
 * comparable between runs), plus the portal and webhook goals measured later in the same run.
 */
export const GOALS = {
  /** 1. GraphQL's req/s over PostGraphile 5's, same query shape, same run. */
  graphqlToPostGraphile: 1.1,
  /** 2. REST's req/s over the raw node:http + pg floor's. */
  restToFloor: 0.75,
  /** 3. REST's and GraphQL's p99 over the floor's p99, same pass. */
  p99ToFloor: 1.5,
  /** 4. The product server's peak RSS under load, with `npm start`'s flags. */
  productPeakRssMiB: 200,
  /** 5. The portal at 1,000 tenants / 1M users: every-tenant recount, cross-tenant search p50. */
  everyTenantRecountMs: 2_000,
  portalSearchP50Ms: 50,
  /** 6. The webhook burst, every event delivered once. */
  webhookDeliveriesPerSecond: 1_000,
};

export interface Goal {
  name: string;
  value: string;
  goal: string;
  /** null: not measured in this run (the line says why). */
  met: boolean | null;
}

export interface GoalInputs {
  load: LoadTable;
  productPeakRssMiB: number | null;
  sql: StatementCounts;
  /** Why PostGraphile was not measured, when it was not. */
  postgraphileSkipped?: string;
  portal?: PortalScaleResults;
  webhooks?: DeliveryResults;
}

const ratio = (value: number, base: number) => (base > 0 ? Math.round((value / base) * 100) / 100 : 0);

export function goalsOf(inputs: GoalInputs): Goal[] {
  const { load } = inputs;
  const goals: Goal[] = [];
  const pg5 = load.postgraphile;
  if (pg5) {
    const value = ratio(load.graphql.requestsPerSecond, pg5.requestsPerSecond);
    goals.push({
      name: '1. GraphQL / PostGraphile 5',
      value: `${value.toFixed(2)}× (${Math.round(load.graphql.requestsPerSecond)} vs ${Math.round(pg5.requestsPerSecond)} req/s)`,
      goal: `≥ ${GOALS.graphqlToPostGraphile}×`,
      met: value >= GOALS.graphqlToPostGraphile,
    });
  } else
    goals.push({
      name: '1. GraphQL / PostGraphile 5',
      value: `not measured: ${inputs.postgraphileSkipped ?? 'no PostGraphile target'}`,
      goal: `≥ ${GOALS.graphqlToPostGraphile}×`,
      met: null,
    });
  const rest = ratio(load.rest.requestsPerSecond, load.floor.requestsPerSecond);
  goals.push({
    name: '2. REST / floor',
    value: `${rest.toFixed(2)}×`,
    goal: `≥ ${GOALS.restToFloor}×`,
    met: rest >= GOALS.restToFloor,
  });
  for (const key of ['rest', 'graphql'] as const) {
    const p99 = ratio(load[key].latencyP99Ms, load.floor.latencyP99Ms);
    goals.push({
      name: `3. ${key === 'rest' ? 'REST' : 'GraphQL'} p99 / floor p99`,
      value: `${p99.toFixed(2)}× (${load[key].latencyP99Ms} vs ${load.floor.latencyP99Ms} ms)`,
      goal: `≤ ${GOALS.p99ToFloor}×`,
      met: p99 <= GOALS.p99ToFloor,
    });
  }
  goals.push({
    name: '4. product peak RSS',
    value: `${inputs.productPeakRssMiB ?? '?'} MiB`,
    goal: `≤ ${GOALS.productPeakRssMiB} MiB`,
    met: inputs.productPeakRssMiB !== null && inputs.productPeakRssMiB <= GOALS.productPeakRssMiB,
  });
  goals.push(...portalGoals(inputs.portal), ...webhookGoals(inputs.webhooks));
  goals.push({
    name: 'SQL per users list',
    value: Object.entries(inputs.sql.byLimit)
      .map(([limit, count]) => `limit=${limit} → ${count}`)
      .join(', '),
    goal: 'equal',
    met: inputs.sql.equal,
  });
  return goals;
}

function portalGoals(portal: PortalScaleResults | undefined): Goal[] {
  const recount = { name: '5. portal every-tenant recount', goal: `≤ ${GOALS.everyTenantRecountMs} ms` };
  const search = { name: '5. portal search p50', goal: `≤ ${GOALS.portalSearchP50Ms} ms` };
  if (!portal)
    return [recount, search].map((goal) => ({
      ...goal,
      value: 'not measured (BENCH_PORTAL=false)',
      met: null,
    }));
  return [
    {
      ...recount,
      value: `${Math.round(portal.everyTenantRecountMs)} ms (${portal.data.tenants} tenants)`,
      met: portal.everyTenantRecountMs <= GOALS.everyTenantRecountMs,
    },
    {
      ...search,
      value: `${portal.load.search.latencyP50Ms} ms`,
      met: portal.load.search.latencyP50Ms <= GOALS.portalSearchP50Ms,
    },
  ];
}

function webhookGoals(webhooks: DeliveryResults | undefined): Goal[] {
  const name = '6. webhook burst';
  const goal = `≥ ${GOALS.webhookDeliveriesPerSecond}/s, 0 lost, 0 duplicates`;
  if (!webhooks) return [{ name, goal, value: 'not measured', met: null }];
  const { burst, duplicates } = webhooks;
  const lost = burst.events - burst.delivered;
  return [
    {
      name,
      goal,
      value: `${Math.round(burst.deliveriesPerSecond)}/s, ${lost} lost, ${duplicates} duplicates`,
      met: burst.deliveriesPerSecond >= GOALS.webhookDeliveriesPerSecond && lost === 0 && duplicates === 0,
    },
  ];
}

export function formatGoal(goal: Goal): string {
  const verdict = goal.met === null ? 'not measured' : goal.met ? 'met' : 'NOT met';
  return `  ${goal.name.padEnd(32)} ${goal.value.padStart(36)}   goal ${goal.goal}: ${verdict}`;
}
