import { allocationHandler } from '#shared/resources/assets/allocation-handler';
import { allocationDocuments } from '#shared/resources/assets/vehicles';

/** PATCH /v3/vehicles/{vehicle_id}/relationships/allocated_person: replaces any other allocation */
export const handler = allocationHandler('allocateVehicleToPerson', 'allocated_person');

export const requestBody = allocationDocuments.allocated_person;
