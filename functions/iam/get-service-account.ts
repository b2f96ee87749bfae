import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { serviceAccounts } from './definitions';

/** GET /v3/orgs/{org_id}/iam/service-accounts/{service_account_id}: keys are shown masked, never with secrets. */
export const handler = jsonApiHandler('getServiceAccount', async (request) =>
  resourceResponse(
    request,
    serviceAccounts,
    await readInScope(request.scope, serviceAccounts, request.params.service_account_id),
  ),
);
