/**
 * Photos made on the spot by sharp, as a phone would send them (issue 44): JPEGs with EXIF capture time,
 * GPS and device, at any size (a 12-megapixel one for the worker's figures), and the bad files the issue
 * lists. Nothing is fetched; the one HEIC is `test/fixtures/images/phone.heic` (made by libheif's heif-enc
 * with x265 from a JPEG like these, 640 × 480, EXIF with GPS), since sharp cannot encode HEVC.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import sharp from 'sharp';

export interface PhoneExif {
  make?: string;
  model?: string;
  /** EXIF text, `YYYY:MM:DD HH:MM:SS`. */
  takenAt?: string;
  /** `±HH:MM`. */
  offset?: string;
  /** EXIF rationals as sharp writes them: `51/1 30/1 0/1`. */
  latitude?: { ref: 'N' | 'S'; dms: string };
  longitude?: { ref: 'E' | 'W'; dms: string };
  headingDegrees?: number;
  accuracyMetres?: number;
  /** EXIF orientation, 1..8. */
  orientation?: number;
}

/** The phone of the fixtures: London, 4 May 2026 13:14:15 at +02:00, facing east, within 5 m. */
export const LONDON_PHONE: PhoneExif = {
  make: 'Apple',
  model: 'iPhone 15',
  takenAt: '2026:05:04 13:14:15',
  offset: '+02:00',
  latitude: { ref: 'N', dms: '51/1 30/1 0/1' },
  longitude: { ref: 'W', dms: '0/1 7/1 30/1' },
  headingDegrees: 90,
  accuracyMetres: 5,
};

const exifBlocks = (exif: PhoneExif) => ({
  IFD0: {
    ...(exif.make && { Make: exif.make }),
    ...(exif.model && { Model: exif.model }),
  },
  IFD2: {
    ...(exif.takenAt && { DateTimeOriginal: exif.takenAt }),
    ...(exif.offset && { OffsetTimeOriginal: exif.offset }),
  },
  IFD3: {
    ...(exif.latitude && { GPSLatitudeRef: exif.latitude.ref, GPSLatitude: exif.latitude.dms }),
    ...(exif.longitude && { GPSLongitudeRef: exif.longitude.ref, GPSLongitude: exif.longitude.dms }),
    ...(exif.headingDegrees !== undefined && {
      GPSImgDirection: `${Math.round(exif.headingDegrees * 100)}/100`,
    }),
    ...(exif.accuracyMetres !== undefined && {
      GPSHPositioningError: `${Math.round(exif.accuracyMetres * 100)}/100`,
    }),
  },
});

/**
 * A photo-like picture (smooth colour fields from upscaled noise, so it compresses as a photo does, not as
 * noise or a flat colour) of `width` × `height`, as pixels.
 */
const scene = (width: number, height: number) =>
  sharp({
    create: {
      width: Math.max(1, Math.round(width / 40)),
      height: Math.max(1, Math.round(height / 40)),
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .png()
    .toBuffer()
    .then((small) => sharp(small).resize(width, height, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer());

/** A phone JPEG of `width` × `height` (stored pixels, before orientation) with `exif`. */
export const phoneJpeg = async (
  width: number,
  height: number,
  exif: PhoneExif = LONDON_PHONE,
): Promise<Buffer> => {
  const pixels = await scene(width, height);
  const image = sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 88 })
    .withExif(exifBlocks(exif));
  return (exif.orientation ? image.withMetadata({ orientation: exif.orientation }) : image).toBuffer();
};

/** A real HEIC from a phone's encoder (HEVC in HEIF), 640 × 480, with {@link LONDON_PHONE}'s EXIF. */
export const phoneHeic = (): Buffer =>
  readFileSync(resolve(import.meta.dirname, '../fixtures/images/phone.heic'));

/**
 * A decompression bomb: a small valid JPEG whose frame header (SOF0) is rewritten to declare
 * `width` × `height` (at most 65,535 each), so the file stays a few hundred bytes.
 */
export const bombJpeg = async (width = 50_000, height = 50_000): Promise<Buffer> => {
  const small = Buffer.from(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } })
      .jpeg({ mozjpeg: false, progressive: false })
      .toBuffer(),
  );
  const sof = small.indexOf(Buffer.from([0xff, 0xc0]));
  if (sof < 0) throw new Error('No baseline frame header in the JPEG');
  // FF C0, length (2), precision (1), height (2), width (2).
  small.writeUInt16BE(height, sof + 5);
  small.writeUInt16BE(width, sof + 7);
  return small;
};

/**
 * A HEIC whose container reads (size, brands, codec) but whose coded picture is zeros: what the wasm
 * decoder cannot read. (libde265 makes a picture of most garbage; it finds nothing in zeros.)
 */
export const undecodableHeic = (): Buffer => {
  const heic = Buffer.from(phoneHeic());
  const mdat = heic.indexOf(Buffer.from('mdat', 'latin1'));
  if (mdat < 0) throw new Error('No mdat box in the HEIC fixture');
  heic.fill(0, mdat + 4);
  return heic;
};
