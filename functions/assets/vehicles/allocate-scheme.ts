import { allocationHandler } from '../allocation-handler';
import { allocationDocuments } from './writes';

/** PATCH /v3/vehicles/{vehicle_id}/relationships/allocated_scheme: replaces any other allocation */
export const handler = allocationHandler('allocateVehicleToScheme', 'allocated_scheme');

export const requestBody = allocationDocuments.allocated_scheme;
