import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { resourceDocument } from '#shared/jsonapi/document';
import { NotFoundError } from '#shared/jsonapi/errors';
import { serviceAccounts } from './definitions';
import { findKey, keyResource } from './service-account-keys';

/** GET …/service-accounts/{service_account_id}/keys/{key_id}: one key, its secret masked. */
export const handler = jsonApiHandler(
  'getServiceAccountKey',
  async (request) => {
    const account = await readInScope(request.scope, serviceAccounts, request.params.service_account_id);
    const key = findKey(account, request.params.key_id);
    if (!key) throw new NotFoundError('No such key on this service account.');
    return resourceDocument(request, keyResource(account, key, request.baseUrl));
  },
  // The account (which holds its keys) comes in the same round trip as the caller's credentials.
  ({ org_id: org, service_account_id: id }) => (org && id ? [serviceAccounts.keyOf(org, id)] : []),
);
