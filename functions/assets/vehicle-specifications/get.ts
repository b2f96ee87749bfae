import { getHandler } from '#shared/http/crud-handlers';
import { vehicleSpecifications } from '#shared/resources/assets/definitions';

/** GET /v3/orgs/{org_id}/assets/vehicle-specifications/{vehicle_specification_id} */
export const handler = getHandler(
  'getVehicleSpecification',
  vehicleSpecifications,
  'vehicle_specification_id',
);
