import { exchangeClientCredentials, TOKEN_ERROR_STATUSES, tokenError } from '#shared/auth/client-credentials';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';

export {
  tokenRequest as requestBody,
  tokenResponse as responseBody,
} from '#shared/auth/client-credentials';

/** Its own refusals are RFC 6749 §5.2 JSON, not JSON:API (the middlewares' refusals before it still are). */
export const errorBody = { media: 'application/json', schema: tokenError, statuses: TOKEN_ERROR_STATUSES };

/** POST {auth_url}/oauth2/token: the OAuth 2.0 client-credentials grant (RFC 6749 §4.4). */
export const handler = jsonApiHandler('issueToken', async ({ headers, body, sourceIp }) => {
  const {
    status,
    body: answer,
    headers: extra,
  } = await exchangeClientCredentials(
    headers['content-type'],
    headers.authorization,
    typeof body === 'string' ? body : '',
    sourceIp,
  );
  return new Reply(
    status,
    answer,
    { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...extra },
    'application/json',
  );
});
