/**
 * Client secrets are stored only as a salted scrypt hash and compared in constant time.
 * Format: `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>` so parameters can be raised later.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const PARAMS = { N: 2 ** 14, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

const derive = (secret: string, salt: Buffer, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );

export const hashSecret = async (secret: string): Promise<string> => {
  const salt = randomBytes(16);
  const hash = await derive(secret, salt, PARAMS);
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64url'),
    hash.toString('base64url'),
  ].join('$');
};

export const verifySecret = async (secret: string, stored: string): Promise<boolean> => {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), {
    N: Number(N),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

/** A new client secret: 32 random bytes, URL-safe. */
export const newClientSecret = (): string => randomBytes(32).toString('base64url');
