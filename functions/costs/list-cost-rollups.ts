import { jsonApiHandler } from '#shared/http/json-api-handler';
import { costRollUps } from '#shared/resources/costs/roll-ups';

/** GET /v3/cost-rollups: read-only roll-ups of a node of the job hierarchy (spec rules 1–12). */
export const handler = jsonApiHandler('listCostRollups', (request) =>
  costRollUps(request.principal, request),
);
