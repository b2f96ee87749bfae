import { createHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

const crud = nodeCrud('operations');

/** POST /v3/orgs/{org_id}/projects/operations: 201 */
export const handler = createHandler('createOperation', crud);

export const requestBody = crud.documents.create;
