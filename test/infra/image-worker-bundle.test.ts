/**
 * The image worker's asset (issue 44): built as `cdk synth` builds it, offline, it carries sharp's binding
 * and libvips for Lambda's platform (linux-arm64 ELF files, the lock's versions, where sharp requires
 * them), and its `index.mjs` needs nothing else: with this machine's build of the same two packages put
 * in their place, it loads in a fresh process outside the repository and renders a photo and a HEIC.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleImageWorker } from '../../infra/image-worker-bundle';
import { LINUX_ARM64_PACKAGES, lockedPackages } from '../../infra/native/linux-arm64';
import { REPOSITORY_ROOT } from '../../infra/repository';
import { phoneHeic, phoneJpeg } from '../support/photos';

const out = mkdtempSync(join(tmpdir(), 'image-worker-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
bundleImageWorker(out, 'test/support/image-processing-entry.ts');

/** ELF's e_machine for AArch64. */
const EM_AARCH64 = 183;
const elfMachine = (file: string) => {
  const head = readFileSync(file).subarray(0, 20);
  expect(head.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
  return head.readUInt16LE(18);
};

describe('the image worker asset', () => {
  it('holds sharp-linux-arm64 and sharp-libvips-linux-arm64 at the versions sharp asks for and the lock pins', () => {
    const sharpPackage = JSON.parse(
      readFileSync(resolve(REPOSITORY_ROOT, 'node_modules/sharp/package.json'), 'utf8'),
    );
    for (const locked of lockedPackages()) {
      expect(sharpPackage.optionalDependencies[locked.name]).toBe(locked.version);
      const shipped = JSON.parse(
        readFileSync(join(out, 'node_modules', locked.name, 'package.json'), 'utf8'),
      );
      expect([shipped.name, shipped.version]).toEqual([locked.name, locked.version]);
    }
    expect(readdirSync(join(out, 'node_modules/@img')).sort()).toEqual(
      [...LINUX_ARM64_PACKAGES].map((n) => n.slice(5)).sort(),
    );
  });

  it('its native files are linux-arm64 builds: the binding, and libvips where its rpath looks (../../sharp-libvips-linux-arm64/lib)', () => {
    const [binding] = readdirSync(join(out, 'node_modules/@img/sharp-linux-arm64/lib')).filter((f) =>
      f.endsWith('.node'),
    );
    expect(binding).toMatch(/^sharp-linux-arm64-[\d.]+\.node$/);
    expect(elfMachine(join(out, 'node_modules/@img/sharp-linux-arm64/lib', binding as string))).toBe(
      EM_AARCH64,
    );
    const [libvips] = readdirSync(join(out, 'node_modules/@img/sharp-libvips-linux-arm64/lib')).filter((f) =>
      f.startsWith('libvips-cpp.so'),
    );
    expect(elfMachine(join(out, 'node_modules/@img/sharp-libvips-linux-arm64/lib', libvips as string))).toBe(
      EM_AARCH64,
    );
  });

  it('its bundle needs only those two packages: with this machine’s build in their place it renders a JPEG and a HEIC', async () => {
    const host = mkdtempSync(join(tmpdir(), 'image-worker-host-'));
    try {
      cpSync(join(out, 'index.mjs'), join(host, 'index.mjs'));
      for (const name of ['@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64'])
        cpSync(resolve(REPOSITORY_ROOT, 'node_modules', name), join(host, 'node_modules', name), {
          recursive: true,
        });
      const run = (bytes: Buffer, mediaType: string) => {
        writeFileSync(join(host, 'photo'), bytes);
        const script = `const { readFileSync } = await import('node:fs');
const { handler } = await import(${JSON.stringify(join(host, 'index.mjs'))});
const bytes = readFileSync(${JSON.stringify(join(host, 'photo'))}).toString('base64');
const answer = await handler({ bytes, media_type: ${JSON.stringify(mediaType)} });
process.stdout.write(JSON.stringify(answer));`;
        const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
          cwd: host,
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '', NODE_NO_WARNINGS: '1' },
          stdio: ['ignore', 'pipe', 'ignore'],
          maxBuffer: 64 * 1024 * 1024,
        });
        return JSON.parse(stdout.slice(stdout.lastIndexOf('{"facts"')));
      };
      const sizes = (answer: { variants: { name: string; width: number; height: number }[] }) =>
        answer.variants.map(({ name, width, height }) => [name, width, height]);
      expect(sizes(run(await phoneJpeg(1600, 1200), 'image/jpeg'))).toEqual([
        ['thumb', 256, 192],
        ['medium', 1024, 768],
        ['large', 1600, 1200],
      ]);
      expect(sizes(run(phoneHeic(), 'image/heic'))).toEqual([
        ['thumb', 256, 192],
        ['medium', 640, 480],
        ['large', 640, 480],
      ]);
    } finally {
      rmSync(host, { recursive: true, force: true });
    }
  }, 120_000);
});
