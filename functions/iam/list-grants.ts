import { listResources } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { grants } from './definitions';

/** GET /v3/orgs/{org_id}/iam/grants (filters: role, role_group, user, team, service_account). */
export const handler = jsonApiHandler('listGrants', (request) => listResources(request, grants));
