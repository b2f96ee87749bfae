/**
 * Access tokens are verified with the keys shipped in the deployment (TOKEN_VERIFICATION_KEYS, written by
 * the stack from its key store), never with a JWKS fetched at a cold start, and a rotation is safe: a
 * token of either trusted key verifies, one of any other key is refused, and no JWKS is asked for.
 * The issuer is a loopback server that counts what it is asked.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const [current, next, stranger] = [pair(), pair(), pair()];
const spki = (key: KeyObject) => key.export({ type: 'spki', format: 'der' }).toString('base64');

const asked: string[] = [];
const issuer = createServer((req, res) => {
  asked.push(req.url ?? '');
  res.end('{"keys":[]}');
});

let verifyAccessToken: typeof import('#shared/auth/verify-access-token').verifyAccessToken;
let verificationJwks: typeof import('#shared/data/verification-keys').verificationJwks;
let keyId: typeof import('#shared/data/verification-keys').keyId;

beforeAll(async () => {
  await new Promise<void>((listening) => issuer.listen(0, '127.0.0.1', listening));
  // Read once per process by the configuration: set before its first import.
  Object.assign(process.env, {
    TOKEN_ISSUER: `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`,
    TOKEN_AUDIENCE: 'compliance-api:test',
    TOKEN_VERIFICATION_KEYS: [current, next].map((k) => spki(k.publicKey)).join(','),
  });
  ({ verifyAccessToken } = await import('#shared/auth/verify-access-token'));
  ({ verificationJwks, keyId } = await import('#shared/data/verification-keys'));
});
afterAll(() => new Promise((closed) => issuer.close(closed)));

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const tokenOf = (key: { privateKey: KeyObject; publicKey: KeyObject }) => {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: 'RS256', typ: 'at+jwt', kid: keyId(key.publicKey.export({ format: 'jwk' })) };
  const payload = {
    iss: process.env.TOKEN_ISSUER,
    aud: 'compliance-api:test',
    sub: 'principal',
    client_id: 'client',
    iat: now,
    exp: now + 300,
    jti: 'jti',
  };
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`;
};

describe('access tokens are verified with the keys the deployment ships', () => {
  it('a token of the signing key and one of the next key both verify (a rotation never refuses a live token)', async () => {
    await expect(verifyAccessToken(tokenOf(current))).resolves.toEqual({
      principalId: 'principal',
      clientId: 'client',
    });
    await expect(verifyAccessToken(tokenOf(next))).resolves.toMatchObject({ principalId: 'principal' });
  });

  it('a token of a key the deployment does not ship is refused', async () => {
    await expect(verifyAccessToken(tokenOf(stranger))).rejects.toThrow();
  });

  it('no JWKS is fetched from the issuer, for a known key or an unknown one', () => {
    expect(asked).toEqual([]);
  });

  it('the published JWKS is the trusted keys, each under its kid', () => {
    expect(verificationJwks().keys.map((k) => k.kid)).toEqual(
      [current, next].map((k) => keyId(k.publicKey.export({ format: 'jwk' }))),
    );
  });
});
