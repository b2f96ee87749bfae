import { updateHandler } from '#shared/http/crud-handlers';
import { nodeCrud } from '#shared/resources/projects/hierarchy';

/** PATCH /v3/orgs/{org_id}/projects/operations/{operation_id}: partial update */
export const handler = updateHandler('updateOperation', nodeCrud('operations'), 'operation_id');
