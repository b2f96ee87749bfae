/**
 * The image worker's native code for the deployed platform (Lambda, linux-arm64, glibc): sharp's binding
 * and libvips as registry packages, fetched when `npm install` runs (this is its `postinstall`), so that
 * `cdk synth` copies them into the worker's asset offline. npm installs only the build of the machine it
 * runs on (x64 here and in CI), and these two are optional dependencies of sharp for another platform,
 * so npm skips them; the lock still records their versions and integrity, and this step takes both from
 * there: `npm pack` fetches each tarball, its SHA-512 is checked against the lock, and it is unpacked
 * under `node_modules/.linux-arm64/node_modules/` (gone with `node_modules`, made again by the next
 * install). A package already there at the lock's integrity is kept.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPOSITORY_ROOT } from '../repository';

/** The packages the worker's asset carries, as the lock names them. */
export const LINUX_ARM64_PACKAGES = ['@img/sharp-linux-arm64', '@img/sharp-libvips-linux-arm64'] as const;

/** Where they are unpacked: a `node_modules` of their own, so Node's resolution finds them as the asset will. */
export const LINUX_ARM64_MODULES = resolve(REPOSITORY_ROOT, 'node_modules/.linux-arm64/node_modules');

const INTEGRITY_MARK = '.lock-integrity';

export interface Locked {
  name: string;
  version: string;
  integrity: string;
}

/** Each package's version and integrity from `package-lock.json`. */
export const lockedPackages = (lockFile = resolve(REPOSITORY_ROOT, 'package-lock.json')): Locked[] => {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as {
    packages: Record<string, { version?: string; integrity?: string }>;
  };
  return LINUX_ARM64_PACKAGES.map((name) => {
    const entry = lock.packages[`node_modules/${name}`];
    if (!entry?.version || !entry.integrity?.startsWith('sha512-'))
      throw new Error(`package-lock.json has no version and SHA-512 integrity for ${name}`);
    return { name, version: entry.version, integrity: entry.integrity };
  });
};

/** The folder a package is unpacked to, and whether it holds the lock's version. */
export const unpackedAt = (locked: Locked) => {
  const folder = join(LINUX_ARM64_MODULES, locked.name);
  const mark = join(folder, INTEGRITY_MARK);
  return { folder, current: existsSync(mark) && readFileSync(mark, 'utf8') === locked.integrity };
};

/** The tarball, if its SHA-512 is the lock's; otherwise an error naming both (nothing is unpacked). */
export const checkedTarball = (locked: Locked, tarball: string): string => {
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (integrity !== locked.integrity)
    throw new Error(
      `${locked.name}@${locked.version}: the tarball's ${integrity} is not the lock's ${locked.integrity}`,
    );
  return tarball;
};

const fetchVerified = (locked: Locked, into: string): string => {
  const json = execFileSync(
    'npm',
    ['pack', `${locked.name}@${locked.version}`, '--json', '--pack-destination', into],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [packed] = JSON.parse(json) as { filename: string }[];
  if (!packed) throw new Error(`npm pack gave no tarball for ${locked.name}@${locked.version}`);
  return checkedTarball(locked, join(into, packed.filename));
};

export const installLinuxArm64 = (log: (line: string) => void = () => {}) => {
  const scratch = mkdtempSync(join(tmpdir(), 'linux-arm64-'));
  try {
    for (const locked of lockedPackages()) {
      const { folder, current } = unpackedAt(locked);
      if (current) continue;
      const tarball = fetchVerified(locked, scratch);
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
      // npm's tarballs hold one `package/` folder.
      execFileSync('tar', ['-xzf', tarball, '-C', folder, '--strip-components=1']);
      writeFileSync(join(folder, INTEGRITY_MARK), locked.integrity);
      log(`${locked.name}@${locked.version} (linux-arm64) unpacked, integrity checked`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url))
  installLinuxArm64((line) => process.stdout.write(`${line}\n`));
