import { describe, expect, it } from 'vitest';
import { hashSecret, newClientSecret, verifySecret } from '#shared/auth/secret-hash';

describe('client secrets are stored only as a salted hash', () => {
  it('the stored form does not contain the secret and is salted', async () => {
    const secret = newClientSecret();
    const [first, second] = await Promise.all([hashSecret(secret), hashSecret(secret)]);
    expect(first).not.toContain(secret);
    expect(first).not.toBe(second);
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$/);
  });

  it('verifies the right secret and refuses any other', async () => {
    const secret = newClientSecret();
    const stored = await hashSecret(secret);
    expect(await verifySecret(secret, stored)).toBe(true);
    expect(await verifySecret(`${secret}x`, stored)).toBe(false);
    expect(await verifySecret(secret, 'plain-text')).toBe(false);
  });
});
