import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { serviceAccounts } from './definitions';
import { deleteServiceAccount } from './service-accounts';

/** DELETE …/service-accounts/{service_account_id}: 204; its keys and grants go with it. */
export const handler = jsonApiHandler('deleteServiceAccount', async (request) => {
  await deleteServiceAccount(
    request.scope,
    await readInScope(request.scope, serviceAccounts, request.params.service_account_id),
  );
  return new Reply(204, undefined);
});
