import { createHandler } from '#shared/http/crud-handlers';
import { nodeCrud } from '#shared/resources/projects/hierarchy';

/** POST /v3/orgs/{org_id}/projects/operations: 201 */
export const handler = createHandler('createOperation', nodeCrud('operations'));
