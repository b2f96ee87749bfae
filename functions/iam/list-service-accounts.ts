import { listResources } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { serviceAccounts } from './definitions';

/** GET /v3/orgs/{org_id}/iam/service-accounts */
export const handler = jsonApiHandler('listServiceAccounts', (request) =>
  listResources(request, serviceAccounts),
);
