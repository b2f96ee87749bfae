/**
 * Signing in through an organisation's OpenID provider, as its relying party: authorization code with
 * PKCE (S256), state and nonce. `beginLogin` makes the authorization URL and the secrets the caller keeps
 * until the callback; `finishLogin` checks the callback, exchanges the code and returns the ID token's
 * verified claims, or throws an `OidcLoginError` naming what failed.
 *
 * The protocol is oauth4webapi's (no dependencies; 25 KB minified for what is used here, where
 * openid-client, built on it, is 33 KB). It checks the ID token's `iss`, `aud`, `azp`, `exp`, `iat` and
 * `nonce` while processing the token response; its signature is checked apart, against the provider's
 * JWKS (`validateApplicationLevelSignature`), because oauth4webapi leaves that to the caller for a token
 * received straight from the token endpoint.
 */
import * as oauth from 'oauth4webapi';
import { config } from '../config';
import { ApiError } from '../jsonapi/errors';

export type OidcLoginFailure =
  | 'state_mismatch'
  | 'code_rejected'
  | 'nonce_mismatch'
  | 'token_expired'
  | 'audience_mismatch'
  | 'issuer_mismatch'
  | 'bad_signature'
  | 'provider_error'
  | 'provider_unreachable';

const DETAIL: Record<OidcLoginFailure, string> = {
  state_mismatch: 'The sign-in response does not belong to this sign-in (its state differs).',
  code_rejected: 'The identity provider refused the authorization code (used already, expired, or not ours).',
  nonce_mismatch: 'The ID token was not issued for this sign-in (its nonce differs).',
  token_expired: 'The ID token has expired, or is not valid yet.',
  audience_mismatch: 'The ID token was issued to another client.',
  issuer_mismatch: 'The response or ID token comes from another issuer than the provider configured.',
  bad_signature: "The ID token's signature does not verify with the identity provider's keys.",
  provider_error: 'The identity provider answered with an error.',
  provider_unreachable: 'The identity provider could not be reached.',
};

/**
 * A sign-in refused, and why (`reason`, also in the error's `meta`). The client's failure is a 401; an
 * unreachable provider is a 503, since trying again later may work.
 */
export class OidcLoginError extends ApiError {
  constructor(
    readonly reason: OidcLoginFailure,
    options: { cause?: unknown; detail?: string } = {},
  ) {
    const unreachable = reason === 'provider_unreachable';
    super(
      unreachable ? 503 : 401,
      unreachable ? 'Service unavailable' : 'You are not authorised to access this resource',
      {
        ...(!unreachable && { code: 'AUTH.001' }),
        detail: options.detail ?? DETAIL[reason],
        meta: { reason },
      },
    );
    this.cause = options.cause;
  }
}

/** The claims of a verified ID token that sign-in uses. */
export interface OidcClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
}

interface Provider {
  as: oauth.AuthorizationServer;
  /** What every request to this provider passes to oauth4webapi. */
  http: oauth.HttpRequestOptions<'GET' | 'POST', URLSearchParams | undefined>;
}

const DISCOVERY_PATH = '/.well-known/openid-configuration';
const CACHE_MS = 5 * 60_000;
/** A provider slower than this fails the sign-in rather than the whole request. */
const TIMEOUT_MS = 5_000;

/** https, or plain http to a loopback address where the local stack or the tests allow it. */
const allowedUrl = (url: string | undefined): boolean => {
  if (url === undefined) return true; // a URL the provider does not name is never fetched
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  if (protocol === 'https:') return true;
  const loopback = hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
  return protocol === 'http:' && loopback && config.SSO_ALLOW_LOOPBACK_HTTP;
};

/** Every request to a provider times out, and a network failure is `provider_unreachable`. */
const fetchProvider = (url: string, init: oauth.CustomFetchOptions<string, unknown>) =>
  fetch(url, { ...(init as RequestInit), signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(
    (cause: unknown) => {
      throw new OidcLoginError('provider_unreachable', { cause });
    },
  );

const httpOptions = (urls: (string | undefined)[]): Provider['http'] => ({
  [oauth.customFetch]: fetchProvider,
  // oauth4webapi refuses http unless told; we tell it only when every URL it may fetch is allowed.
  [oauth.allowInsecureRequests]: urls.every(allowedUrl) && urls.some((u) => u?.startsWith('http:')),
});

/** The metadata is checked when the provider is saved (domain/iam/oidc-metadata.ts): a URL or JSON. */
const discover = async (metadata: string): Promise<Provider> => {
  const text = metadata.trim();
  let as: oauth.AuthorizationServer;
  if (text.startsWith('{')) {
    as = JSON.parse(text) as oauth.AuthorizationServer;
  } else {
    // Per OpenID Connect Discovery the issuer is the discovery URL without its well-known path, and the
    // document must name that issuer (processDiscoveryResponse checks it).
    const url = new URL(text);
    if (!url.pathname.endsWith(DISCOVERY_PATH)) throw new OidcLoginError('provider_error');
    const issuer = new URL(`${url.origin}${url.pathname.slice(0, -DISCOVERY_PATH.length)}`);
    const response = await oauth.discoveryRequest(issuer, httpOptions([url.href]));
    as = await oauth.processDiscoveryResponse(issuer, response).catch((error: unknown) => {
      throw error instanceof oauth.OperationProcessingError && error.code === oauth.JSON_ATTRIBUTE_COMPARISON
        ? new OidcLoginError('issuer_mismatch', { cause: error })
        : error;
    });
  }
  return { as, http: httpOptions([as.issuer, as.authorization_endpoint, as.token_endpoint, as.jwks_uri]) };
};

/**
 * Providers by their metadata, for a few minutes: discovery is not fetched on every sign-in, and
 * oauth4webapi keeps a provider's JWKS with its metadata object.
 */
const providers = new Map<string, { provider: Promise<Provider>; until: number }>();

const resolveProvider = (metadata: string): Promise<Provider> => {
  const now = Date.now();
  const cached = providers.get(metadata);
  if (cached && cached.until > now) return cached.provider;
  for (const [key, entry] of providers) if (entry.until <= now) providers.delete(key);
  const provider = discover(metadata).catch((error: unknown) => {
    providers.delete(metadata);
    throw failure(error, 'provider_error');
  });
  providers.set(metadata, { provider, until: now + CACHE_MS });
  return provider;
};

/** Names an oauth4webapi failure; `fallback` for what the step it came from stands for. */
const failure = (error: unknown, fallback: OidcLoginFailure): OidcLoginError => {
  if (error instanceof OidcLoginError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    // invalid_grant: the code was used already, has expired, or was issued for another client or verifier.
    return new OidcLoginError(error.error === 'invalid_grant' ? 'code_rejected' : 'provider_error', {
      cause: error,
      detail: `The identity provider answered ${error.error}.`,
    });
  }
  if (error instanceof oauth.OperationProcessingError) {
    const claim = (error.cause as { claim?: string } | undefined)?.claim;
    if (error.code === oauth.JWT_TIMESTAMP_CHECK)
      return new OidcLoginError('token_expired', { cause: error });
    if (error.code === oauth.JWT_CLAIM_COMPARISON) {
      const reason =
        claim === 'nonce'
          ? 'nonce_mismatch'
          : claim === 'aud' || claim === 'azp'
            ? 'audience_mismatch'
            : claim === 'iss'
              ? 'issuer_mismatch'
              : fallback;
      return new OidcLoginError(reason, { cause: error });
    }
  }
  return new OidcLoginError(fallback, { cause: error });
};

export interface BeginLogin {
  /** The SSO provider record's `metadata`: its discovery URL, or the discovery document as JSON. */
  metadata: string;
  clientId: string;
  redirectUri: string;
  scope?: string;
}

/** What the caller keeps (server-side) until the callback, to check it against. */
export interface LoginSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export const beginLogin = async ({
  metadata,
  clientId,
  redirectUri,
  scope = 'openid email profile',
}: BeginLogin): Promise<LoginSecrets & { authorizationUrl: string }> => {
  const { as } = await resolveProvider(metadata);
  // The browser goes there with our client id: as the token endpoint, https unless allowed otherwise.
  if (!as.authorization_endpoint || !allowedUrl(as.authorization_endpoint)) {
    throw new OidcLoginError('provider_error');
  }
  const secrets = {
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    codeVerifier: oauth.generateRandomCodeVerifier(),
  };
  const url = new URL(as.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    state: secrets.state,
    nonce: secrets.nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(secrets.codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  return { authorizationUrl: url.href, ...secrets };
};

export interface FinishLogin {
  metadata: string;
  clientId: string;
  /** A confidential client's secret, sent as client_secret_basic (client_secret_post if that is all the provider takes). */
  clientSecret?: string;
  redirectUri: string;
  /** The URL the provider redirected the browser to, with its query. */
  callbackUrl: string;
  expected: LoginSecrets;
  /** The time to check the ID token's `exp` and `iat` against; now by default. */
  now?: Date;
}

const clientAuthentication = (as: oauth.AuthorizationServer, secret: string | undefined) => {
  if (secret === undefined) return oauth.None();
  const methods = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  return methods.includes('client_secret_basic') || !methods.includes('client_secret_post')
    ? oauth.ClientSecretBasic(secret)
    : oauth.ClientSecretPost(secret);
};

const stringClaim = (value: unknown) => (typeof value === 'string' ? value : undefined);

export const finishLogin = async ({
  metadata,
  clientId,
  clientSecret,
  redirectUri,
  callbackUrl,
  expected,
  now,
}: FinishLogin): Promise<OidcClaims> => {
  const { as, http } = await resolveProvider(metadata);
  const client: oauth.Client = {
    client_id: clientId,
    // oauth4webapi reads its clock as Date.now() plus this skew, in seconds.
    ...(now && { [oauth.clockSkew]: Math.floor(now.getTime() / 1000) - Math.floor(Date.now() / 1000) }),
  };

  // The callback: the provider's `iss` (RFC 9207), then our `state`, then any error the provider sent.
  const callback = new URL(callbackUrl);
  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(as, client, callback, expected.state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      throw new OidcLoginError('provider_error', {
        cause: error,
        detail: `The identity provider answered ${error.error}.`,
      });
    }
    const iss = callback.searchParams.get('iss');
    const wrongIssuer =
      iss === null ? as.authorization_response_iss_parameter_supported === true : iss !== as.issuer;
    const wrongState = callback.searchParams.get('state') !== expected.state;
    throw new OidcLoginError(
      wrongIssuer ? 'issuer_mismatch' : wrongState ? 'state_mismatch' : 'provider_error',
      {
        cause: error,
      },
    );
  }

  let response: Response;
  let tokens: oauth.TokenEndpointResponse;
  try {
    response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuthentication(as, clientSecret),
      parameters,
      redirectUri,
      expected.codeVerifier,
      http,
    );
    tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
      expectedNonce: expected.nonce,
      requireIdToken: true,
    });
  } catch (error) {
    throw failure(error, 'provider_error');
  }
  try {
    await oauth.validateApplicationLevelSignature(as, response, http);
  } catch (error) {
    // No key of the provider's with the token's `kid`, or one that does not verify it.
    const unverified =
      error instanceof oauth.OperationProcessingError &&
      (error.code === oauth.KEY_SELECTION || error.code === oauth.INVALID_RESPONSE);
    throw failure(error, unverified ? 'bad_signature' : 'provider_error');
  }

  const claims = oauth.getValidatedIdTokenClaims(tokens);
  if (!claims) throw new OidcLoginError('provider_error');
  const verified: OidcClaims = { sub: claims.sub };
  for (const name of ['email', 'given_name', 'family_name', 'name'] as const) {
    const value = stringClaim(claims[name]);
    if (value !== undefined) verified[name] = value;
  }
  if (typeof claims.email_verified === 'boolean') verified.email_verified = claims.email_verified;
  return verified;
};
