/**
 * Verifying access tokens with aws-jwt-verify against the keys shipped with the deployment
 * (shared/data/verification-keys.ts; never fetched), in the RFC 9068 profile and as RFC 8725 asks:
 * - the algorithm is RS256 only (the published key says so and the check below insists), so `alg: none`,
 *   HS256 keyed with the public key, or another RSA hash are refused;
 * - the key is found only by `kid` among the keys we ship; a token whose header carries or points at a key
 *   (`jwk`, `jku`, `x5c`, `x5u`) is refused, and so is any `crit` header (no extension is understood);
 * - `typ` must be `at+jwt` (or its long form `application/at+jwt`, RFC 9068 §4), so an ID token or an
 *   untyped JWT is not an access token;
 * - `iss` is exactly the token issuer and `aud` exactly this API (a string, not a list naming others);
 * - `exp`, `iat` and `jti` are required; `nbf` is honoured when present; times are judged with
 *   CLOCK_SKEW_SECONDS of leeway, and an `iat` further in the future than that is refused.
 * Kept apart from issuance so API functions do not bundle the KMS client.
 */
import { JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { config } from '../config';
import { verificationJwks } from '../data/verification-keys';

export const ACCESS_TOKEN_TYPE = 'at+jwt';
const ACCESS_TOKEN_TYPES: ReadonlySet<unknown> = new Set([
  ACCESS_TOKEN_TYPE,
  `application/${ACCESS_TOKEN_TYPE}`,
]);

/** Leeway between the issuer's clock and this function's, for `exp`, `nbf` and `iat`. */
export const CLOCK_SKEW_SECONDS = 60;

/** Header members that carry or point at a key: the key is only ever our published JWKS's. */
const KEY_HEADERS = ['jwk', 'jku', 'x5c', 'x5u'] as const;

// The keys ship with the deployment: a `kid` they lack is refused, never looked up at the issuer (a cold
// start would otherwise ask our own API for its JWKS, and an unknown `kid` would make every forgery a fetch).
const jwksFetcher = {
  fetch: async (): Promise<ArrayBuffer> => {
    throw new Error('no JWKS is fetched: the token names a key this deployment does not trust');
  },
};

const verifier = JwtRsaVerifier.create(
  {
    issuer: config.TOKEN_ISSUER,
    audience: config.TOKEN_AUDIENCE,
    jwksUri: `${config.TOKEN_ISSUER}/.well-known/jwks.json`,
    graceSeconds: CLOCK_SKEW_SECONDS,
    customJwtCheck: ({ header, payload }) => {
      if (header.alg !== 'RS256') throw new Error('only RS256 is accepted');
      if (!ACCESS_TOKEN_TYPES.has(header.typ)) throw new Error('not an access token');
      if ('crit' in header) throw new Error('crit names extensions this service does not understand');
      if (KEY_HEADERS.some((name) => name in header)) throw new Error('the token names its own key');
      if (payload.aud !== config.TOKEN_AUDIENCE) throw new Error('aud is not exactly this API');
      if (typeof payload.exp !== 'number') throw new Error('access token lacks exp');
      if (typeof payload.iat !== 'number') throw new Error('access token lacks iat');
      if (payload.iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS) throw new Error('iat is in the future');
      if (typeof payload.jti !== 'string' || payload.jti === '') throw new Error('access token lacks jti');
      if (typeof payload.client_id !== 'string' || typeof payload.sub !== 'string') {
        throw new Error('access token lacks client_id or sub');
      }
    },
  },
  { jwksCache: new SimpleJwksCache({ fetcher: jwksFetcher }) },
);
let keysCached = false;

export interface VerifiedAccessToken {
  principalId: string;
  clientId: string;
}

/** Verifies signature, algorithm, type, `iss`, `aud`, `exp`, `iat`, `nbf` and `jti`; throws on any failure. */
export const verifyAccessToken = async (token: string): Promise<VerifiedAccessToken> => {
  if (!keysCached) verifier.cacheJwks(verificationJwks());
  keysCached = true;
  const payload = await verifier.verify(token);
  return { principalId: String(payload.sub), clientId: String(payload.client_id) };
};
