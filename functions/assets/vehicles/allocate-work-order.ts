import { allocationHandler } from '../allocation-handler';
import { allocationDocuments } from './writes';

/** PATCH /v3/vehicles/{vehicle_id}/relationships/allocated_work_order: replaces any other allocation */
export const handler = allocationHandler('allocateVehicleToWorkOrder', 'allocated_work_order');

export const requestBody = allocationDocuments.allocated_work_order;
