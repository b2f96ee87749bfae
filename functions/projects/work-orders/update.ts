import { updateHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

const crud = nodeCrud('work-orders');

/** PATCH /v3/orgs/{org_id}/projects/work-orders/{work_order_id}: partial update */
export const handler = updateHandler('updateWorkOrder', crud, 'work_order_id');

export const requestBody = crud.documents.update;
