import { deleteHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

/** DELETE /v3/orgs/{org_id}/projects/operations/{operation_id}: 204; soft, restorable with POST …/restore */
export const handler = deleteHandler('deleteOperation', nodeCrud('operations'), 'operation_id');
