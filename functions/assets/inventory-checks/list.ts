import { listHandler } from '#shared/http/crud-handlers';
import { vehicleInventoryChecks } from '#shared/resources/assets/definitions';

/** GET /v3/orgs/{org_id}/assets/vehicle-inventory-checks: newest inspection first; filter by vehicle. */
export const handler = listHandler('listVehicleInventoryChecks', vehicleInventoryChecks);
