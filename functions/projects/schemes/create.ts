import { createHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

const crud = nodeCrud('schemes');

/** POST /v3/orgs/{org_id}/projects/schemes: 201 */
export const handler = createHandler('createScheme', crud);

export const requestBody = crud.documents.create;
