import { deleteHandler } from '#shared/engine/crud-handlers';
import { vehicleCrud } from './writes';

/** DELETE /v3/vehicles/{vehicle_id}: 204; 409 while it still carries equipment */
export const handler = deleteHandler('deleteVehicle', vehicleCrud, 'vehicle_id');
