import { createHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

const crud = nodeCrud('work-orders');

/** POST /v3/orgs/{org_id}/projects/work-orders: 201 */
export const handler = createHandler('createWorkOrder', crud);

export const requestBody = crud.documents.create;
