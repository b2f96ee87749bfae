import { allocationHandler } from '#shared/resources/assets/allocation-handler';
import { allocationDocuments } from '#shared/resources/assets/vehicles';

/** PATCH /v3/vehicles/{vehicle_id}/relationships/allocated_scheme: replaces any other allocation */
export const handler = allocationHandler('allocateVehicleToScheme', 'allocated_scheme');

export const requestBody = allocationDocuments.allocated_scheme;
