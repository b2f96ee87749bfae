import { getHandler } from '#shared/http/crud-handlers';
import { operations } from '#shared/resources/projects/definitions';

/** GET /v3/orgs/{org_id}/projects/operations/{operation_id} */
export const handler = getHandler('getOperation', operations, 'operation_id');
