import { allocationHandler } from '../allocation-handler';
import { allocationDocuments } from './writes';

/** PATCH /v3/vehicles/{vehicle_id}/relationships/allocated_location: replaces any other allocation */
export const handler = allocationHandler('allocateVehicleToLocation', 'allocated_location');

export const requestBody = allocationDocuments.allocated_location;
