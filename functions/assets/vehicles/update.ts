import { updateHandler } from '#shared/http/crud-handlers';
import { vehicleCrud } from '#shared/resources/assets/vehicles';

/** PATCH /v3/vehicles/{vehicle_id}: attributes, `specification` and `user` (allocations have their own paths) */
export const handler = updateHandler('updateVehicle', vehicleCrud, 'vehicle_id');
