import { readInScope } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { ssoProviders } from './definitions';
import { deleteSsoProvider } from './sso-providers';

/** DELETE /v3/sso-providers/{sso_provider_id}: 204; the provider's sign-in URL stops at once. */
export const handler = jsonApiHandler('deleteSsoProvider', async ({ scope, params }) => {
  await deleteSsoProvider(scope, await readInScope(scope, ssoProviders, params.sso_provider_id));
  return new Reply(204, undefined);
});
