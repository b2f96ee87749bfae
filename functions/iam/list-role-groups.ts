import { listResources } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { roleGroups } from './definitions';

/** GET /v3/orgs/{org_id}/iam/role-groups */
export const handler = jsonApiHandler('listRoleGroups', (request) => listResources(request, roleGroups));
