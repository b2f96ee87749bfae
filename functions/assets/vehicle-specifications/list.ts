import { listHandler } from '#shared/http/crud-handlers';
import { vehicleSpecifications } from '#shared/resources/assets/definitions';

/** GET /v3/orgs/{org_id}/assets/vehicle-specifications */
export const handler = listHandler('listVehicleSpecifications', vehicleSpecifications);
