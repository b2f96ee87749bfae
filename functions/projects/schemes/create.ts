import { createHandler } from '#shared/http/crud-handlers';
import { nodeCrud } from '#shared/resources/projects/hierarchy';

/** POST /v3/orgs/{org_id}/projects/schemes: 201 */
export const handler = createHandler('createScheme', nodeCrud('schemes'));
