import { deleteHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

/** DELETE /v3/orgs/{org_id}/projects/schemes/{scheme_id}: 204; soft, restorable with POST …/restore */
export const handler = deleteHandler('deleteScheme', nodeCrud('schemes'), 'scheme_id');
