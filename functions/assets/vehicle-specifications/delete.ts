import { deleteHandler } from '#shared/http/crud-handlers';
import { vehicleSpecificationCrud } from '#shared/resources/assets/catalogue';

/** DELETE /v3/orgs/{org_id}/assets/vehicle-specifications/{vehicle_specification_id}: 204 */
export const handler = deleteHandler(
  'deleteVehicleSpecification',
  vehicleSpecificationCrud,
  'vehicle_specification_id',
);
