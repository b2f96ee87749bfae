/** Signs arbitrary JWTs with the test run's local signing key, to prove what verification refuses. */
import { createHash, createHmac, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';

const privateKey = () => createPrivateKey(readFileSync(process.env.LOCAL_SIGNING_KEY_FILE ?? ''));
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export const kid = () => {
  const jwk = createPublicKey(privateKey()).export({ format: 'jwk' });
  return createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest('base64url');
};

/**
 * Signs with the test key; the header starts as the service's own (`RS256`, `at+jwt`, the key's `kid`),
 * and a header member given as `undefined` is left out. `hash` lets a test sign as RS384/RS512 would.
 */
export const signRs256 = (
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  hash: 'sha256' | 'sha384' | 'sha512' = 'sha256',
) => {
  const input = `${b64({ alg: 'RS256', typ: 'at+jwt', kid: kid(), ...header })}.${b64(payload)}`;
  return `${input}.${sign(hash, Buffer.from(input), privateKey()).toString('base64url')}`;
};

/** The classic key-confusion forgery: HS256 with the public key's PEM as the HMAC secret. */
export const signHs256WithPublicKey = (payload: Record<string, unknown>) => {
  const input = `${b64({ alg: 'HS256', typ: 'at+jwt', kid: kid() })}.${b64(payload)}`;
  const secret = createPublicKey(privateKey()).export({ type: 'spki', format: 'pem' });
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
};
