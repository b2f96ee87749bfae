import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { parseDocument } from '#shared/jsonapi/request-document';
import { serviceAccounts } from './definitions';
import { createServiceAccount, createServiceAccountDocument } from './service-accounts';

export { createServiceAccountDocument as requestBody } from './service-accounts';

/** POST /v3/orgs/{org_id}/iam/service-accounts: 201; keys are added with POST …/keys. */
export const handler = jsonApiHandler('createServiceAccount', async (request) => {
  const document = parseDocument(createServiceAccountDocument, request.body);
  const account = await createServiceAccount(request.scope, request.params.org_id, document);
  const answer = await resourceResponse(request, serviceAccounts, account);
  return created(answer);
});
