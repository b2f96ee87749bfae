import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { NotFoundError } from '#shared/jsonapi/errors';
import { serviceAccounts } from './definitions';
import { findKey } from './service-account-keys';
import { deleteKey } from './service-accounts';

/** DELETE …/keys/{key_id}: 204; the key's tokens and its secret stop working at once. */
export const handler = jsonApiHandler('deleteServiceAccountKey', async ({ scope, params }) => {
  const account = await readInScope(scope, serviceAccounts, params.service_account_id);
  if (!findKey(account, params.key_id)) throw new NotFoundError('No such key on this service account.');
  await deleteKey(scope, account, params.key_id);
  return new Reply(204, undefined);
});
