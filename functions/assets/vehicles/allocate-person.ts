import { allocationHandler } from '#shared/http/allocation-handler';

/** PATCH /v3/vehicles/{vehicle_id}/relationships/allocated_person: replaces any other allocation */
export const handler = allocationHandler('allocateVehicleToPerson', 'allocated_person');
