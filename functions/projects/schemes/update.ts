import { updateHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

const crud = nodeCrud('schemes');

/** PATCH /v3/orgs/{org_id}/projects/schemes/{scheme_id}: partial update */
export const handler = updateHandler('updateScheme', crud, 'scheme_id');

export const requestBody = crud.documents.update;
