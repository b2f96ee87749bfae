import { updateHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

const crud = nodeCrud('operations');

/** PATCH /v3/orgs/{org_id}/projects/operations/{operation_id}: partial update */
export const handler = updateHandler('updateOperation', crud, 'operation_id');

export const requestBody = crud.documents.update;
