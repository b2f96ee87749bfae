import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { parseDocument } from '#shared/jsonapi/request-document';
import { serviceAccounts } from './definitions';
import { updateServiceAccount, updateServiceAccountDocument } from './service-accounts';

export { updateServiceAccountDocument as requestBody } from './service-accounts';

/** PATCH …/service-accounts/{service_account_id}: name, description, enabled; disabling stops its tokens at once. */
export const handler = jsonApiHandler('updateServiceAccount', async (request) => {
  const document = parseDocument(updateServiceAccountDocument, request.body);
  const account = await readInScope(request.scope, serviceAccounts, request.params.service_account_id);
  return resourceResponse(
    request,
    serviceAccounts,
    await updateServiceAccount(request.scope, account, document),
  );
});
