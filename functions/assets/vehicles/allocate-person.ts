import { allocationHandler } from '../allocation-handler';
import { allocationDocuments } from './writes';

/** PATCH /v3/vehicles/{vehicle_id}/relationships/allocated_person: replaces any other allocation */
export const handler = allocationHandler('allocateVehicleToPerson', 'allocated_person');

export const requestBody = allocationDocuments.allocated_person;
