import { getHandler } from '#shared/http/crud-handlers';
import { vehicleInventoryChecks } from '#shared/resources/assets/definitions';

/** GET /v3/vehicle-inventory-checks/{vehicle_inventory_check_id} */
export const handler = getHandler(
  'getVehicleInventoryCheck',
  vehicleInventoryChecks,
  'vehicle_inventory_check_id',
);
