/**
 * Issuing access tokens: RS256 JWTs in the RFC 9068 profile (`typ: at+jwt`; `iss`, `sub`, `aud`, `exp`,
 * `iat`, `nbf`, `jti`, `client_id`), signed by the KMS key in AWS and the local key locally.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { signingKey } from '../data/signing-key';
import { ACCESS_TOKEN_TYPE } from './verify-access-token';

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
