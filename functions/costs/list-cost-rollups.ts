import { jsonApiHandler } from '#shared/http/json-api-handler';
import type { OwnQueryParameters } from '#shared/jsonapi/own-query-parameters';
import { costRollUps } from './roll-ups';

/** GET /v3/cost-rollups: read-only roll-ups of a node of the job hierarchy (spec rules 1–12). */
export const handler = jsonApiHandler('listCostRollups', (request) =>
  costRollUps(request.principal, request),
);

/** The spec's named-filter expression; paging as every collection. */
export const queryParameters = {
  filter: {
    description:
      'and(eq(organisation,<org_id>),eq(cost_centre,<node_id>),eq(cost_centre_type,<scheme-contracts|schemes|work-orders|operations>)[,eq(depth,<self|all>)]): the three named filters together or none (CH.004.211); depth self (the default) or all.',
  },
} satisfies OwnQueryParameters;
