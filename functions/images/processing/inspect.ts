/**
 * What an uploaded image is, from its header and EXIF, before anything decodes its pixels: the type from
 * the bytes (the client's word is only checked against it), the size from the header (refused past
 * `MAX_PIXELS`, so a tiny file declaring 50,000 × 50,000 costs nothing), then, for JPEG, PNG and WebP, a
 * decode at the smallest scale libvips can (JPEG shrink-on-load) that proves the data is whole. A HEIC is
 * decoded only when its variants are rendered: a failure there keeps it, with variants pending.
 */
import type { Metadata } from 'sharp';
import type { ImageFacts, ImageMediaType, Inspection } from './contract';
import { MAX_PIXELS, openImage } from './decoder';
import { captureDevice, captureLocation, captureTime, readExif } from './exif-facts';
import { isHeif, sameFamily, sniffMediaType } from './media-type';

const LIBVIPS_FORMAT: Record<ImageMediaType, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heif',
  'image/heif': 'heif',
};

const refuse = (reason: Exclude<Inspection, { ok: true }>['reason'], detail: string): Inspection => ({
  ok: false,
  reason,
  detail,
});

/** The header, read by libvips without decoding; a header it cannot read is a corrupt file. */
const header = async (bytes: Uint8Array): Promise<Metadata | null> => {
  try {
    // Reading a header decodes no pixel, so it is allowed past the limit: the limit is checked on what it says.
    return await openImage(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return null;
  }
};

/** Decodes at the smallest scale, strictly enough that a truncated or broken file fails. */
const decodesWhole = async (bytes: Uint8Array): Promise<boolean> => {
  try {
    await openImage(bytes, { failOn: 'warning' })
      .resize(64, 64, { fit: 'inside', fastShrinkOnLoad: true })
      .raw()
      .toBuffer();
    return true;
  } catch {
    return false;
  }
};

export async function inspectImage(
  bytes: Uint8Array,
  declared: ImageMediaType,
  receivedAt: Date,
): Promise<Inspection> {
  const sniffed = sniffMediaType(bytes);
  if (sniffed === null)
    return refuse('corrupt', 'The file is not an image in any format this service reads.');
  if (sniffed === 'other')
    return refuse(
      'unsupported',
      'The file is an image in a format this service does not take (JPEG, PNG, WebP, HEIC).',
    );
  if (!sameFamily(sniffed, declared))
    return refuse('type_mismatch', `The file was declared ${declared} but its bytes are ${sniffed}.`);
  const meta = await header(bytes);
  if (!meta || meta.format !== LIBVIPS_FORMAT[sniffed] || !meta.width || !meta.height)
    return refuse('corrupt', `The ${sniffed} file's header cannot be read.`);
  // libheif reads AVIF too, under the same brands: only HEVC-coded HEIF is a phone's HEIC.
  if (isHeif(sniffed) && meta.compression !== 'hevc')
    return refuse(
      'unsupported',
      `The HEIF file is coded with ${meta.compression ?? 'an unknown codec'}, not HEVC.`,
    );
  const pixels = meta.width * meta.height;
  if (pixels > MAX_PIXELS)
    return refuse(
      'too_many_pixels',
      `The image declares ${meta.width} × ${meta.height} pixels; at most ${MAX_PIXELS.toLocaleString('en')} are taken.`,
    );
  if (!isHeif(sniffed) && !(await decodesWhole(bytes)))
    return refuse('corrupt', `The ${sniffed} file's pixel data is damaged or cut short.`);
  const exif = await readExif(meta.exif);
  const upright = meta.autoOrient ?? { width: meta.width, height: meta.height };
  const facts: ImageFacts = {
    media_type: sniffed,
    width: upright.width,
    height: upright.height,
    captured_at: captureTime(exif, receivedAt),
    location: captureLocation(exif),
    device: captureDevice(exif),
  };
  return { ok: true, facts };
}
