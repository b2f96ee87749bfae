import { allocationHandler } from '#shared/http/allocation-handler';

/** PATCH /v3/vehicles/{vehicle_id}/relationships/allocated_location: replaces any other allocation */
export const handler = allocationHandler('allocateVehicleToLocation', 'allocated_location');
