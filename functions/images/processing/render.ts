/**
 * The three variants of an image: upright (EXIF orientation applied, or HEIF's own transformations),
 * no larger than each variant's long side and never enlarged, blur regions blurred into the pixels,
 * arrows, boxes and text drawn over them, and re-encoded as JPEG with no metadata at all: sharp writes
 * none unless asked (no EXIF, GPS, XMP or ICC; the pixels are converted to sRGB first). The original is
 * decoded once, to a base no larger than the largest variant; each variant is cut from that base.
 * Anything that fails answers `{ ok: false, reason }`: the area keeps the original, its variants pending.
 */
import type { Sharp } from 'sharp';
import { blurRegions, overlaySvg, type PixelRegion } from './annotations';
import {
  type Annotation,
  type ImageFacts,
  type Rendering,
  VARIANTS,
  type Variant,
  type VariantName,
} from './contract';
import { MAX_PIXELS, openImage, openPixels } from './decoder';
import { decodeHeic } from './heic';
import { isHeif, sniffMediaType } from './media-type';

const JPEG_QUALITY = 82;
const LARGEST = Math.max(...Object.values(VARIANTS));

interface Base {
  pixels: Buffer;
  width: number;
  height: number;
  channels: 3;
}

/** Where decoding starts: libvips for JPEG, PNG and WebP, the wasm decoder for HEIC. */
const decoded = async (bytes: Uint8Array, facts: ImageFacts): Promise<Sharp | string> => {
  // The limit is checked against the bytes, not the facts handed in: the header is read again.
  const meta = await openImage(bytes, { limitInputPixels: false }).metadata();
  if (!meta.width || !meta.height) return 'The image header cannot be read.';
  if (meta.width * meta.height > MAX_PIXELS) return 'The image has more pixels than the limit.';
  const sniffed = sniffMediaType(bytes);
  if (sniffed === null || sniffed === 'other') return 'The file is not an image this service reads.';
  if (!isHeif(sniffed) && !isHeif(facts.media_type))
    return openImage(bytes, { failOn: 'error' }).autoOrient();
  const heic = await decodeHeic(bytes);
  return heic.ok ? openPixels(heic.pixels, heic.width, heic.height, heic.channels) : heic.reason;
};

/** Blurs each region of the base strongly enough that nothing in it can be read back (pixelate, then blur). */
const blurred = async (base: Base, regions: readonly PixelRegion[]): Promise<Base> => {
  if (regions.length === 0) return base;
  const raw = { width: base.width, height: base.height, channels: base.channels };
  const patches = await Promise.all(
    regions.map(async (region) => {
      const cell = Math.max(2, Math.round(Math.max(region.width, region.height) / 12));
      const small = await openPixels(base.pixels, base.width, base.height, 3)
        .extract(region)
        .resize(Math.max(1, Math.round(region.width / cell)), Math.max(1, Math.round(region.height / cell)), {
          fit: 'fill',
        })
        .raw()
        .toBuffer();
      const input = await openPixels(
        small,
        Math.max(1, Math.round(region.width / cell)),
        Math.max(1, Math.round(region.height / cell)),
        3,
      )
        .resize(region.width, region.height, { fit: 'fill', kernel: 'nearest' })
        .blur(Math.max(1, cell / 2))
        .raw()
        .toBuffer();
      return { input, raw: { width: region.width, height: region.height, channels: 3 as const }, ...region };
    }),
  );
  // Compositing answers RGBA: back to the base's three channels.
  const pixels = await openPixels(base.pixels, raw.width, raw.height, 3)
    .composite(patches)
    .removeAlpha()
    .raw()
    .toBuffer();
  return { ...base, pixels };
};

const variant = async (
  base: Base,
  name: VariantName,
  annotations: readonly Annotation[],
): Promise<Variant> => {
  const scale = Math.min(1, VARIANTS[name] / Math.max(base.width, base.height));
  const width = Math.max(1, Math.round(base.width * scale));
  const height = Math.max(1, Math.round(base.height * scale));
  let pipeline = openPixels(base.pixels, base.width, base.height, 3).resize(width, height, { fit: 'fill' });
  const overlay = overlaySvg(annotations, width, height);
  if (overlay)
    pipeline = openPixels(await pipeline.raw().toBuffer(), width, height, 3).composite([
      { input: Buffer.from(overlay) },
    ]);
  const { data, info } = await pipeline.jpeg({ quality: JPEG_QUALITY }).toBuffer({ resolveWithObject: true });
  return { name, bytes: data, media_type: 'image/jpeg', width: info.width, height: info.height };
};

export async function renderVariants(
  bytes: Uint8Array,
  facts: ImageFacts,
  annotations: readonly Annotation[] = [],
): Promise<Rendering> {
  try {
    const start = await decoded(bytes, facts);
    if (typeof start === 'string') return { ok: false, reason: start };
    const { data, info } = await start
      .resize(LARGEST, LARGEST, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) return { ok: false, reason: `Unexpected ${info.channels}-channel pixels.` };
    const base = await blurred(
      { pixels: data, width: info.width, height: info.height, channels: 3 },
      blurRegions(annotations, info.width, info.height),
    );
    const names = Object.keys(VARIANTS) as VariantName[];
    const variants: Variant[] = [];
    // One at a time: a 1,024 MB worker holds one base and one variant's pixels, not three.
    for (const name of names) variants.push(await variant(base, name, annotations));
    return { ok: true, variants };
  } catch (error) {
    return {
      ok: false,
      reason: `The image could not be rendered: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
