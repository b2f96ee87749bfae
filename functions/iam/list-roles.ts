import { listInMemory } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { roles } from './definitions';
import { rolesOf } from './virtual-records';

/** GET /v3/orgs/{org_id}/iam/roles: the built-in roles (fixed string ids) and the organisation's custom roles. */
export const handler = jsonApiHandler('listRoles', (request) =>
  listInMemory(request, roles, () => rolesOf(request.scope, request.params.org_id)),
);
