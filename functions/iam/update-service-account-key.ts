import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { resourceDocument } from '#shared/jsonapi/document';
import { NotFoundError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { serviceAccounts } from './definitions';
import { findKey, keyResource } from './service-account-keys';
import { setKeyEnabled, updateKeyDocument } from './service-accounts';

export { updateKeyDocument as requestBody } from './service-accounts';

/** PATCH …/keys/{key_id}: enable or disable a key; a disabled key's tokens stop at once. */
export const handler = jsonApiHandler('updateServiceAccountKey', async (request) => {
  const { scope, params } = request;
  const { data } = parseDocument(updateKeyDocument, request.body);
  const account = await readInScope(scope, serviceAccounts, params.service_account_id);
  if (!findKey(account, params.key_id)) throw new NotFoundError('No such key on this service account.');
  assertSameId(data.id, params.key_id);
  const updated = await setKeyEnabled(scope, account, data.id, data.attributes.enabled);
  const key = findKey(updated, data.id);
  if (!key) throw new NotFoundError('No such key on this service account.');
  return resourceDocument(request, keyResource(updated, key, request.baseUrl));
});
