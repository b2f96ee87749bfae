import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { vehicleInventoryChecks } from '../definitions';
import { inventoryCheckCrud } from './writes';

/** PATCH /v3/vehicle-inventory-checks/{vehicle_inventory_check_id}: the check with its equipment items included. */
export const handler = jsonApiHandler('updateVehicleInventoryCheck', async (request) => {
  const check = await readInScope(
    request.scope,
    vehicleInventoryChecks,
    request.params.vehicle_inventory_check_id,
  );
  const updated = await inventoryCheckCrud.update(request.scope, check, request.body);
  const include = [request.query.include, 'equipment'].filter(Boolean).join(',');
  return resourceResponse(
    { ...request, query: { ...request.query, include } },
    vehicleInventoryChecks,
    updated,
  );
});

export const requestBody = inventoryCheckCrud.documents.update;
