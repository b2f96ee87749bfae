/**
 * Images (issue 44): the image worker's pixels and its asset. The processing module is bundled as the
 * worker is (`infra/image-worker-bundle.ts`, its stand-in entry `test/support/image-processing-entry.ts`)
 * and run in a fresh Node process per photo, with this machine's build of sharp's two native packages in
 * place of the linux-arm64 ones the asset carries, and the V8 heap capped as in a 1,024 MB function
 * (`--max-old-space-size`). Each process inspects and renders its photo twice: the first time is a cold
 * container's (wasm and libvips start inside it), the second a warm one's. Peak memory is the process's
 * resident high-water mark (`process.resourceUsage().maxRSS`): V8, libvips' pixel buffers and the HEIC
 * decoder's wasm memory together, what Lambda's memory limit counts. The photos: a 12-megapixel phone
 * JPEG made by sharp (4,032 × 3,024, EXIF with GPS), the same picture as a 12-megapixel HEIC
 * (`test/fixtures/images/phone-12mp.heic`, from libheif's heif-enc with x265, a tiled grid as phones
 * write them) and a small 640 × 480 HEIC. The asset's size is the deployed worker's
 * (`functions/images/worker.ts`), zipped as CDK uploads it. The images area's function (bundle size, cold
 * start against the bare handler) is in the `bundles` part with every other area.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { IMAGE_WORKER_MEMORY_MB } from '../../infra/constructs/image-worker';
import { bundleImageWorker } from '../../infra/image-worker-bundle';
import { REPOSITORY_ROOT } from '../../infra/repository';
import { phoneHeic, phoneJpeg } from '../support/photos';

/** The V8 heap cap the worker's processes run under: the function's memory less room for native buffers. */
const HEAP_MB = IMAGE_WORKER_MEMORY_MB - 128;

const bytesIn = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .reduce((total, f) => total + statSync(join(f.parentPath, f.name)).size, 0);

interface Run {
  variants: { name: string; width: number; height: number; bytes: number }[] | string;
  ms: number;
  max_rss_kib: number;
}

const timed = (host: string, photo: Buffer, mediaType: string): { cold: Run; warm: Run } => {
  const file = join(host, 'photo');
  writeFileSync(file, photo);
  const script = `const { readFileSync } = await import('node:fs');
const { handler } = await import(${JSON.stringify(join(host, 'index.mjs'))});
const event = { bytes: readFileSync(${JSON.stringify(file)}).toString('base64'), media_type: ${JSON.stringify(mediaType)} };
const cold = await handler(event);
const warm = await handler(event);
process.stdout.write('\\n' + JSON.stringify({ cold, warm }));`;
  const stdout = execFileSync(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, '--input-type=module', '-e', script],
    {
      cwd: host,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  return JSON.parse(stdout.slice(stdout.lastIndexOf('\n') + 1));
};

const figuresOf = (label: string, original: Buffer, { cold, warm }: { cold: Run; warm: Run }) => {
  const peak = Math.max(cold.max_rss_kib, warm.max_rss_kib) / 1024;
  const variants = Array.isArray(warm.variants)
    ? Object.fromEntries(
        warm.variants.map((v) => [
          `${label}_${v.name}_bytes`,
          `${v.bytes.toLocaleString('en-GB')} (${v.width} × ${v.height})`,
        ]),
      )
    : { [`${label}_variants`]: warm.variants };
  return {
    [`${label}_original_bytes`]: original.length.toLocaleString('en-GB'),
    [`${label}_cold_ms`]: cold.ms,
    [`${label}_warm_ms`]: warm.ms,
    [`${label}_peak_rss_mib`]: Math.round(peak),
    [`${label}_headroom_of_${IMAGE_WORKER_MEMORY_MB}_mib`]: Math.round(IMAGE_WORKER_MEMORY_MB - peak),
    ...variants,
  };
};

export const benchImages = async () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-images-'));
  try {
    // The deployed asset, as synth builds it, and its size zipped as CDK uploads it.
    const asset = join(out, 'asset');
    bundleImageWorker(asset);
    execFileSync('zip', ['-q', '-r', join(out, 'asset.zip'), '.'], { cwd: asset });
    const sizes = {
      asset_index_mjs_bytes: statSync(join(asset, 'index.mjs')).size.toLocaleString('en-GB'),
      asset_native_linux_arm64_bytes: bytesIn(join(asset, 'node_modules')).toLocaleString('en-GB'),
      asset_zipped_bytes: statSync(join(out, 'asset.zip')).size.toLocaleString('en-GB'),
    };
    // The processing module bundled the same way, with this machine's native build in place.
    const host = join(out, 'host');
    bundleImageWorker(host, 'test/support/image-processing-entry.ts');
    rmSync(join(host, 'node_modules'), { recursive: true, force: true });
    for (const name of ['@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64'])
      cpSync(resolve(REPOSITORY_ROOT, 'node_modules', name), join(host, 'node_modules', name), {
        recursive: true,
      });
    const jpeg = await phoneJpeg(4032, 3024);
    const heic = readFileSync(resolve(REPOSITORY_ROOT, 'test/fixtures/images/phone-12mp.heic'));
    const smallHeic = phoneHeic();
    return {
      heap_cap_mib: HEAP_MB,
      ...sizes,
      ...figuresOf('jpeg_12mp', jpeg, timed(host, jpeg, 'image/jpeg')),
      ...figuresOf('heic_12mp', heic, timed(host, heic, 'image/heic')),
      ...figuresOf('heic_640x480', smallHeic, timed(host, smallHeic, 'image/heic')),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
};
