/**
 * The client-credentials grant (RFC 6749 §4.4) with client authentication by form fields or HTTP Basic
 * (§2.3.1, never both), answering in the token response format of §5.1 or the error format of §5.2.
 */
import { getClient, getPrincipal } from '../data/principals';
import { issueAccessToken } from './issue-access-token';
import { hashSecret, verifySecret } from './secret-hash';

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const oauthError = (
  status: number,
  error: string,
  description: string,
  headers?: Record<string, string>,
): TokenAnswer => ({
  status,
  body: { error, error_description: description },
  ...(headers && { headers }),
});

interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  basic: boolean;
}

/** Decodes `Basic base64(urlencode(id):urlencode(secret))`; null when the header is not Basic. */
const fromBasic = (authorization: string | undefined): ClientCredentials | 'malformed' | null => {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (!match?.[1]) return authorization?.toLowerCase().startsWith('basic') ? 'malformed' : null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return 'malformed';
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
      basic: true,
    };
  } catch {
    return 'malformed';
  }
};

// Spent on unknown client ids too, so response time does not reveal which ids exist.
const decoyHash = hashSecret('decoy-secret-for-timing');

export const exchangeClientCredentials = async (
  contentType: string | undefined,
  authorization: string | undefined,
  body: string,
): Promise<TokenAnswer> => {
  if ((contentType ?? '').split(';')[0]?.trim().toLowerCase() !== 'application/x-www-form-urlencoded') {
    return oauthError(400, 'invalid_request', 'Send the request as application/x-www-form-urlencoded.');
  }
  const form = new URLSearchParams(body);
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) return oauthError(400, 'invalid_request', `${name} is repeated.`);
  }
  const grantType = form.get('grant_type');
  if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is required.');
  if (grantType !== 'client_credentials') {
    return oauthError(400, 'unsupported_grant_type', 'Only the client_credentials grant is supported.');
  }
  const basic = fromBasic(authorization);
  const inForm = form.has('client_id') || form.has('client_secret');
  if (basic === 'malformed')
    return oauthError(400, 'invalid_request', 'The Basic authorization header is malformed.');
  if (basic && inForm) return oauthError(400, 'invalid_request', 'Authenticate the client one way only.');
  const credentials: ClientCredentials | null =
    basic ??
    (form.get('client_id') && form.get('client_secret')
      ? { clientId: form.get('client_id') ?? '', clientSecret: form.get('client_secret') ?? '', basic: false }
      : null);
  const challenge = basic ? { 'WWW-Authenticate': 'Basic realm="oauth2", charset="UTF-8"' } : undefined;
  if (!credentials) return oauthError(401, 'invalid_client', 'Client authentication is required.', challenge);

  const client = await getClient(credentials.clientId);
  const valid = await verifySecret(credentials.clientSecret, client?.secret_hash ?? (await decoyHash));
  const principal = client && valid ? await getPrincipal(client.principal_id) : null;
  if (!client || !principal?.enabled || principal.keys[client.client_id]?.enabled !== true) {
    return oauthError(401, 'invalid_client', 'Client authentication failed.', challenge);
  }
  const { token, expiresIn } = await issueAccessToken(principal.id, client.client_id);
  return {
    status: 200,
    body: { access_token: token, expires_in: expiresIn, scope: '', token_type: 'bearer' },
  };
};
