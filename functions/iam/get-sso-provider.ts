import { getHandler } from '#shared/http/crud-handlers';
import { ssoProviders } from '#shared/resources/iam/definitions';

/** GET /v3/sso-providers/{sso_provider_id}: a provider of an organisation the caller may administer. */
export const handler = getHandler('getSsoProvider', ssoProviders, 'sso_provider_id');
