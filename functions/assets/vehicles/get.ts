import { getHandler } from '#shared/http/crud-handlers';
import { vehicles } from '#shared/resources/assets/definitions';

/** GET /v3/vehicles/{vehicle_id}, in whichever of the caller's organisations holds it */
export const handler = getHandler('getVehicle', vehicles, 'vehicle_id');
