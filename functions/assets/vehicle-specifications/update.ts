import { updateHandler } from '#shared/http/crud-handlers';
import { vehicleSpecificationCrud } from '#shared/resources/assets/catalogue';

/** PATCH /v3/orgs/{org_id}/assets/vehicle-specifications/{vehicle_specification_id} */
export const handler = updateHandler(
  'updateVehicleSpecification',
  vehicleSpecificationCrud,
  'vehicle_specification_id',
);
