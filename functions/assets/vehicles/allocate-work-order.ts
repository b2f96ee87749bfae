import { allocationHandler } from '#shared/http/allocation-handler';

/** PATCH /v3/vehicles/{vehicle_id}/relationships/allocated_work_order: replaces any other allocation */
export const handler = allocationHandler('allocateVehicleToWorkOrder', 'allocated_work_order');
