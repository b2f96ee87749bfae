import { listHandler } from '#shared/http/crud-handlers';
import { operations } from '#shared/resources/projects/definitions';

/** GET /v3/orgs/{org_id}/projects/operations: deleted ones are left out */
export const handler = listHandler('listOperations', operations);
