import { applyInMemory } from '#shared/data/in-memory-collection';
import { readPartition } from '#shared/data/repository';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { listResources } from '#shared/resources/collection';
import { roles } from '#shared/resources/iam/definitions';
import { builtInRoleRecords } from '#shared/resources/iam/virtual-records';

/** GET /v3/orgs/{org_id}/iam/roles: the built-in roles (fixed string ids) and the organisation's custom roles. */
export const handler = jsonApiHandler('listRoles', (request) =>
  listResources(request, roles, async (query) => {
    const orgId = request.params.org_id ?? '';
    const custom = await readPartition(request.scope, orgId, roles.type);
    return applyInMemory([...builtInRoleRecords(orgId), ...custom], query);
  }),
);
