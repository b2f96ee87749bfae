/**
 * What the bytes are, from their first twelve (the formats' magic numbers), before any decoder sees them:
 * only JPEG, PNG, WebP and HEIC/HEIF reach libvips or libheif, whatever the client declared (an SVG, a
 * PDF or a TIFF never does). HEIF's brands: https://github.com/strukturag/libheif/issues/83.
 */
import type { ImageMediaType } from './contract';

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) =>
  bytes.length >= at + magic.length && magic.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));

const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
const HEIF_BRANDS = new Set(['mif1', 'msf1']);

/** The supported type the bytes are, `'other'` for a recognised image we do not take, or null. */
export const sniffMediaType = (bytes: Uint8Array): ImageMediaType | 'other' | null => {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return 'image/webp';
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') {
    const brand = ascii(bytes, 8, 12);
    if (HEIC_BRANDS.has(brand)) return 'image/heic';
    if (HEIF_BRANDS.has(brand)) return 'image/heif';
    // AVIF and other ISO media files.
    return 'other';
  }
  if (
    startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) || // GIF8
    startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || // TIFF, little-endian
    startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]) || // TIFF, big-endian
    startsWith(bytes, [0x42, 0x4d]) // BMP
  )
    return 'other';
  return null;
};

/** HEIC and HEIF are one family: phones label either way, and one decoder reads both. */
export const sameFamily = (a: ImageMediaType, b: ImageMediaType): boolean =>
  a === b || (isHeif(a) && isHeif(b));

export const isHeif = (type: ImageMediaType): boolean => type === 'image/heic' || type === 'image/heif';
