import { allocationHandler } from '#shared/http/allocation-handler';

/** PATCH /v3/vehicles/{vehicle_id}/relationships/allocated_scheme: replaces any other allocation */
export const handler = allocationHandler('allocateVehicleToScheme', 'allocated_scheme');
