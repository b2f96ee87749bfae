/**
 * The public keys that verify access tokens, shipped with the deployment so no cold start fetches a JWKS
 * (from our own API, one more gateway request and `auth` invocation per container). In AWS the stack
 * writes TOKEN_VERIFICATION_KEYS at deploy from its key store: the SubjectPublicKeyInfo (DER, base64) of
 * every key it trusts, the one that signs and the next one (or the previous one, while tokens it signed
 * can still be live), so a key signs only after every function already trusts it (infra/constructs/
 * token-keys.ts says how a rotation runs). Locally the public half of LOCAL_SIGNING_KEY_FILE.
 */
import { createHash, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { config } from '../config';

/** A key's `kid`: its RSA members' SHA-256 (the same for the signer and every verifier). */
export const keyId = (jwk: JsonWebKey) =>
  createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest('base64url');

/** An RSA public key as a JWK (a type, not an interface: JSON-shaped for aws-jwt-verify's cache). */
export type VerificationJwk = { kty: 'RSA'; n: string; e: string; kid: string; alg: 'RS256'; use: 'sig' };

const asJwk = (key: KeyObject): VerificationJwk => {
  const jwk = key.export({ format: 'jwk' });
  return { kty: 'RSA', n: String(jwk.n), e: String(jwk.e), kid: keyId(jwk), alg: 'RS256', use: 'sig' };
};

const configuredKeys = (): KeyObject[] =>
  config.TOKEN_VERIFICATION_KEYS
    ? config.TOKEN_VERIFICATION_KEYS.split(',').map((der) =>
        createPublicKey({ key: Buffer.from(der, 'base64'), format: 'der', type: 'spki' }),
      )
    : config.LOCAL_SIGNING_KEY_FILE
      ? [createPublicKey(readFileSync(config.LOCAL_SIGNING_KEY_FILE))]
      : [];

let loaded: { keys: VerificationJwk[] } | undefined;

/** Every key a token may be signed with, as a JWKS: read from the configuration once per process. */
export const verificationJwks = (): { keys: VerificationJwk[] } => {
  loaded ??= { keys: configuredKeys().map(asJwk) };
  return loaded;
};
