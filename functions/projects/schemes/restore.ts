import { restoreHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

/** POST /v3/orgs/{org_id}/projects/schemes/{scheme_id}/restore: back to its place in the tree. */
export const handler = restoreHandler('restoreScheme', nodeCrud('schemes'), 'scheme_id');
