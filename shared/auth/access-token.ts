/**
 * Access tokens: RS256 JWTs in the RFC 9068 profile (`typ: at+jwt`; `iss`, `sub`, `aud`, `exp`, `iat`,
 * `nbf`, `jti`, `client_id`), signed by the signing key and verified with aws-jwt-verify against the
 * published JWKS. RFC 8725: the algorithm is fixed to RS256 and the token type is checked, so an ID
 * token, a session token or an `alg: none`/HS256 token is refused.
 */
import { randomUUID } from 'node:crypto';
import { JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { config } from '../config';
import { signingKey } from '../data/signing-key';

export const ACCESS_TOKEN_TYPE = 'at+jwt';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export const issueAccessToken = async (
  principalId: string,
  clientId: string,
  now: number = Date.now(),
): Promise<{ token: string; expiresIn: number }> => {
  const key = await signingKey();
  const iat = Math.floor(now / 1000);
  const expiresIn = config.ACCESS_TOKEN_TTL_SECONDS;
  const header = base64url({ alg: 'RS256', typ: ACCESS_TOKEN_TYPE, kid: key.kid });
  const payload = base64url({
    iss: config.TOKEN_ISSUER,
    sub: principalId,
    aud: config.TOKEN_AUDIENCE,
    iat,
    nbf: iat,
    exp: iat + expiresIn,
    jti: randomUUID(),
    client_id: clientId,
  });
  const signature = await key.sign(Buffer.from(`${header}.${payload}`));
  return { token: `${header}.${payload}.${signature.toString('base64url')}`, expiresIn };
};

/** The JWKS document published at `{auth_url}/.well-known/jwks.json`. */
export const publishedJwks = async () => {
  const key = await signingKey();
  return { keys: [{ ...key.publicJwk, kid: key.kid, alg: 'RS256', use: 'sig' }] };
};

// aws-jwt-verify's own fetcher speaks only https; the local stack publishes its JWKS over http on loopback.
const jwksFetcher = {
  fetch: async (uri: string) => {
    const response = await fetch(uri, { signal: AbortSignal.timeout(3000) });
    if (!response.ok) throw new Error(`JWKS fetch failed with ${response.status}`);
    return response.arrayBuffer();
  },
};

const verifier = JwtRsaVerifier.create(
  {
    issuer: config.TOKEN_ISSUER,
    audience: config.TOKEN_AUDIENCE,
    jwksUri: `${config.TOKEN_ISSUER}/.well-known/jwks.json`,
    customJwtCheck: ({ header, payload }) => {
      if (header.typ !== ACCESS_TOKEN_TYPE) throw new Error('not an access token');
      if (typeof payload.client_id !== 'string' || typeof payload.sub !== 'string') {
        throw new Error('access token lacks client_id or sub');
      }
    },
  },
  { jwksCache: new SimpleJwksCache({ fetcher: jwksFetcher }) },
);

export interface VerifiedAccessToken {
  principalId: string;
  clientId: string;
}

/** Verifies signature, algorithm, `iss`, `aud`, `exp`, `nbf` and type; throws on any failure. */
export const verifyAccessToken = async (token: string): Promise<VerifiedAccessToken> => {
  const payload = await verifier.verify(token);
  return { principalId: String(payload.sub), clientId: String(payload.client_id) };
};
