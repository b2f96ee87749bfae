import { jsonApiHandler } from '#shared/http/json-api-handler';
import { jsonapi } from '#shared/jsonapi/document';
import { NotFoundError } from '#shared/jsonapi/errors';
import { serviceAccounts } from '#shared/resources/iam/definitions';
import { findKey, keyResource } from '#shared/resources/iam/service-accounts';
import { readInScope } from '#shared/resources/single';

/** GET …/service-accounts/{service_account_id}/keys/{key_id}: one key, its secret masked. */
export const handler = jsonApiHandler(
  'getServiceAccountKey',
  async ({ scope, params, baseUrl }) => {
    const account = await readInScope(scope, serviceAccounts, params.service_account_id);
    const key = findKey(account, params.key_id);
    if (!key) throw new NotFoundError('No such key on this service account.');
    return { jsonapi, data: keyResource(account, key, baseUrl) };
  },
  // The account (which holds its keys) comes in the same round trip as the caller's credentials.
  ({ org_id: org, service_account_id: id }) => (org && id ? [serviceAccounts.keyOf(org, id)] : []),
);
