import { vehicles } from '#functions/assets/definitions';
import { listResources } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { auditEvents, historyOptions } from './audit-events';
import { historyPage } from './history';

export { historyOptions as collectionOptions } from './audit-events';

/** GET /v3/vehicles/{vehicle_id}/audit-events: the vehicle's history, newest first, paginated. */
export const handler = jsonApiHandler('listVehicleAuditEvents', (request) =>
  listResources(request, { ...auditEvents, collection: historyOptions }, (query) =>
    historyPage(request.scope, vehicles, request.params.vehicle_id, query),
  ),
);
