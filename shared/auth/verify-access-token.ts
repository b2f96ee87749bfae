/**
 * Verifying access tokens with aws-jwt-verify against the published JWKS. RFC 8725: the algorithm is
 * fixed to RS256 and the token type is checked, so an ID token, a session token or an `alg: none`/HS256
 * token is refused. Kept apart from issuance so API functions do not bundle the KMS client.
 */
import { JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { config } from '../config';

export const ACCESS_TOKEN_TYPE = 'at+jwt';

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
