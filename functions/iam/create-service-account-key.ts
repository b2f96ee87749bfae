import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { resourceDocument } from '#shared/jsonapi/document';
import { serviceAccounts } from './definitions';
import { keyResource } from './service-account-keys';
import { createKey } from './service-accounts';

/** POST …/service-accounts/{service_account_id}/keys: 201 with client_id and client_secret, shown this once. */
export const handler = jsonApiHandler('createServiceAccountKey', async (request) => {
  const account = await readInScope(request.scope, serviceAccounts, request.params.service_account_id);
  const made = await createKey(request.scope, account);
  const data = keyResource(made.account, made.key, request.baseUrl, made.clientSecret);
  return created(resourceDocument(request, data), { 'Cache-Control': 'no-store' });
});
