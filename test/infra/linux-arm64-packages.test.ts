/**
 * The image worker's native packages for linux-arm64 (issue 44): `npm install`'s postinstall takes their
 * versions and SHA-512 integrity from the lock and unpacks a fetched tarball only if its hash is the lock's.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkedTarball, LINUX_ARM64_PACKAGES, lockedPackages } from '../../infra/native/linux-arm64';

const scratch = mkdtempSync(join(tmpdir(), 'linux-arm64-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('linux-arm64 packages from the lock', () => {
  it('the lock names both, each with a version and a SHA-512 integrity', () => {
    expect(lockedPackages().map((p) => p.name)).toEqual([...LINUX_ARM64_PACKAGES]);
    for (const locked of lockedPackages()) {
      expect(locked.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(locked.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
  });

  it('a tarball whose SHA-512 is not the lock’s is refused, naming both; the lock’s own passes', () => {
    const tarball = join(scratch, 'package.tgz');
    writeFileSync(tarball, 'not the package the lock names');
    const [locked] = lockedPackages();
    if (!locked) throw new Error('No package locked');
    expect(() => checkedTarball(locked, tarball)).toThrow(/is not the lock's sha512-/);
    const matching = `sha512-${createHash('sha512').update('not the package the lock names').digest('base64')}`;
    expect(checkedTarball({ ...locked, integrity: matching }, tarball)).toBe(tarball);
  });
});
