import { restoreHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

/** POST /v3/orgs/{org_id}/projects/operations/{operation_id}/restore: back to its place in the tree. */
export const handler = restoreHandler('restoreOperation', nodeCrud('operations'), 'operation_id');
