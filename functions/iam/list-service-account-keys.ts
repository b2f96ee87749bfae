import { listResourceObjects } from '#shared/engine/collection';
import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { serviceAccounts } from './definitions';
import { keyOptions, keyResource, keysOf } from './service-account-keys';

export { keyOptions as collectionOptions } from './service-account-keys';

/** GET …/service-accounts/{service_account_id}/keys: every key (at most 10), secrets masked. */
export const handler = jsonApiHandler('listServiceAccountKeys', async (request) => {
  const account = await readInScope(request.scope, serviceAccounts, request.params.service_account_id);
  return listResourceObjects(
    request,
    keyOptions,
    keysOf(account).map((key) => keyResource(account, key, request.baseUrl)),
  );
});
