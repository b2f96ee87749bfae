/**
 * The client-credentials grant (RFC 6749 §4.4) with client authentication by form fields or HTTP Basic
 * (§2.3.1, never both), answering in the token response format of §5.1 or the error format of §5.2, and
 * throttling failed authentications per client id and per source (token-throttle.ts).
 */
import * as z from 'zod/mini';
import { type ClientRecord, clientKey, getPrincipal } from '../data/principals';
import { readTogether } from '../data/repository';
import { keyId } from '../data/stored-resource';
import { issueAccessToken } from './issue-access-token';
import { hashSecret, verifySecret } from './secret-hash';
import { tokenThrottle } from './token-throttle';

/**
 * The form fields the grant reads (§4.4.2; the client's id and secret per §2.3.1); any other field is
 * ignored (§3.2). The OpenAPI document shows this schema: the code below parses the form with it.
 */
export const tokenRequest = z.object({
  grant_type: z.literal('client_credentials'),
  client_id: z.optional(z.string()),
  client_secret: z.optional(z.string()),
});

/** The token response (§5.1). */
export const tokenResponse = z.object({
  access_token: z.string(),
  expires_in: z.int(),
  scope: z.string(),
  token_type: z.literal('bearer'),
});

/** The error response (§5.2), with the statuses it is answered with. */
export const tokenError = z.object({
  error: z.enum(['invalid_request', 'invalid_client', 'unsupported_grant_type']),
  error_description: z.string(),
});
export const TOKEN_ERROR_STATUSES = [400, 401, 429] as const;

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

const oauthError = (
  status: (typeof TOKEN_ERROR_STATUSES)[number],
  error: z.infer<typeof tokenError>['error'],
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
  /**
   * Whether the id could name a client: client ids are key ids, UUIDs. Any other id is never looked up
   * (a long one could not be: DynamoDB refuses keys over 2,048 bytes) but is otherwise treated as every
   * unknown id is: the same hash work, the same counting, the same answers.
   */
  wellFormed: boolean;
}

const CLIENT_ID = z.uuid();

const credentialsOf = (clientId: string, clientSecret: string, basic: boolean): ClientCredentials => ({
  clientId,
  clientSecret,
  basic,
  wellFormed: CLIENT_ID.safeParse(clientId).success,
});

/** Decodes `Basic base64(urlencode(id):urlencode(secret))`; null when the header is not Basic. */
const fromBasic = (authorization: string | undefined): ClientCredentials | 'malformed' | null => {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (!match?.[1]) return authorization?.toLowerCase().startsWith('basic') ? 'malformed' : null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return 'malformed';
  try {
    return credentialsOf(
      decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
      true,
    );
  } catch {
    return 'malformed';
  }
};

// Spent on unknown client ids too, so response time does not reveal which ids exist.
const decoyHash = hashSecret('decoy-secret-for-timing');

/**
 * 429 for a throttled client id or source. RFC 6749 §5.2 has no code for it; `invalid_client` is the
 * registered code that is true here (the client was not authenticated), so OAuth libraries handle it
 * as they already do, while the status and `Retry-After` say why and for how long. The registered
 * alternatives mean something else: `slow_down` is RFC 8628's device-flow polling signal and
 * `temporarily_unavailable` an authorization-endpoint code for an overloaded server.
 */
const tooManyFailures = (retryAfter: number) =>
  oauthError(
    429,
    'invalid_client',
    `Too many failed client authentications; retry after ${retryAfter} seconds.`,
    { 'Retry-After': String(retryAfter) },
  );

export const exchangeClientCredentials = async (
  contentType: string | undefined,
  authorization: string | undefined,
  body: string,
  sourceIp: string,
): Promise<TokenAnswer> => {
  if ((contentType ?? '').split(';')[0]?.trim().toLowerCase() !== 'application/x-www-form-urlencoded') {
    return oauthError(400, 'invalid_request', 'Send the request as application/x-www-form-urlencoded.');
  }
  const form = new URLSearchParams(body);
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) return oauthError(400, 'invalid_request', `${name} is repeated.`);
  }
  const fields = tokenRequest.safeParse(Object.fromEntries(form));
  // Every form value is a string, so grant_type is the only field that can be refused.
  if (!fields.success) {
    return form.get('grant_type')
      ? oauthError(400, 'unsupported_grant_type', 'Only the client_credentials grant is supported.')
      : oauthError(400, 'invalid_request', 'grant_type is required.');
  }
  const { client_id: clientId, client_secret: clientSecret } = fields.data;
  const basic = fromBasic(authorization);
  const inForm = clientId !== undefined || clientSecret !== undefined;
  if (basic === 'malformed')
    return oauthError(400, 'invalid_request', 'The Basic authorization header is malformed.');
  if (basic && inForm) return oauthError(400, 'invalid_request', 'Authenticate the client one way only.');
  const credentials: ClientCredentials | null =
    basic ?? (clientId && clientSecret ? credentialsOf(clientId, clientSecret, false) : null);
  const challenge = basic ? { 'WWW-Authenticate': 'Basic realm="oauth2", charset="UTF-8"' } : undefined;
  if (!credentials) return oauthError(401, 'invalid_client', 'Client authentication is required.', challenge);

  // The client and both failure counts in one BatchGetItem: the throttle costs no extra round trip.
  const throttle = tokenThrottle(credentials.clientId, sourceIp);
  const named = credentials.wellFormed ? clientKey(credentials.clientId) : null;
  const read = await readTogether([...(named ? [named] : []), ...throttle.keys]);
  const locked = throttle.lockedFor(read);
  if (locked !== null) return tooManyFailures(locked);
  const client = named ? (read.get(keyId(named)) as ClientRecord | null) : null;
  const valid = await verifySecret(credentials.clientSecret, client?.secret_hash ?? (await decoyHash));
  const principal = client && valid ? await getPrincipal(client.principal_id) : null;
  if (!client || !principal?.enabled || principal.keys[client.client_id]?.enabled !== true) {
    const wait = await throttle.fail();
    if (wait !== null) return tooManyFailures(wait);
    return oauthError(401, 'invalid_client', 'Client authentication failed.', challenge);
  }
  const { token, expiresIn } = await issueAccessToken(principal.id, client.client_id);
  return {
    status: 200,
    body: {
      access_token: token,
      expires_in: expiresIn,
      scope: '',
      token_type: 'bearer',
    } satisfies z.infer<typeof tokenResponse>,
  };
};
