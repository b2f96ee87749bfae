/**
 * The facts a photo's EXIF gives (capture time, place, device), read by exifr from the TIFF block the
 * container holds, and checked: a value out of range or absurd is null, never a throw. exifr reads with
 * `reviveValues: false`, so times stay the camera's wall-clock text and this module applies the offset.
 */
import exifr from 'exifr';
import type { ImageFacts } from './contract';

/** The EXIF fields read; everything else in the block (thumbnails, maker notes, XMP) is skipped. */
export interface ExifRecord {
  Make?: unknown;
  Model?: unknown;
  DateTimeOriginal?: unknown;
  SubSecTimeOriginal?: unknown;
  OffsetTimeOriginal?: unknown;
  GPSLatitude?: unknown;
  GPSLatitudeRef?: unknown;
  GPSLongitude?: unknown;
  GPSLongitudeRef?: unknown;
  GPSHPositioningError?: unknown;
  GPSImgDirection?: unknown;
}

const EXIF_HEADER = 'Exif\0\0';

/** Parses the EXIF block sharp hands over (a JPEG's carries the `Exif\0\0` header, a HEIC's does not). */
export const readExif = async (block: Uint8Array | undefined): Promise<ExifRecord> => {
  if (!block || block.length < 8) return {};
  const header = String.fromCharCode(...block.subarray(0, EXIF_HEADER.length));
  const tiff = header === EXIF_HEADER ? block.subarray(EXIF_HEADER.length) : block;
  try {
    const parsed: unknown = await exifr.parse(Buffer.from(tiff.buffer, tiff.byteOffset, tiff.byteLength), {
      tiff: true,
      exif: true,
      gps: true,
      ifd1: false,
      interop: false,
      xmp: false,
      icc: false,
      iptc: false,
      jfif: false,
      ihdr: false,
      makerNote: false,
      userComment: false,
      translateKeys: true,
      translateValues: false,
      reviveValues: false,
      mergeOutput: true,
    });
    if (!parsed || typeof parsed !== 'object') return {};
    // exifr reports a block it cannot read in `errors` rather than throwing: what it read besides stays.
    const { errors: _errors, ...fields } = parsed as ExifRecord & { errors?: unknown };
    return fields;
  } catch {
    // A malformed EXIF block is no reason to refuse the photo: it has no EXIF facts.
    return {};
  }
};

/** The earliest capture time believed: digital photos of the kind this service keeps are newer. */
const EARLIEST_CAPTURE = Date.UTC(1990, 0, 1);
/** How far after the server received it a capture time may be (a device clock ahead, a time zone). */
const LATEST_AFTER_RECEIPT_MS = 24 * 60 * 60 * 1000;

const EXIF_TIME = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;
const OFFSET = /^([+-])(\d{2}):(\d{2})$/;

/**
 * DateTimeOriginal at OffsetTimeOriginal, in UTC. Without an offset the wall-clock time's zone is
 * unknown (up to 26 hours either way), so it is not a time at all for evidence: null.
 */
export const captureTime = (exif: ExifRecord, receivedAt: Date): string | null => {
  const time =
    typeof exif.DateTimeOriginal === 'string' ? EXIF_TIME.exec(exif.DateTimeOriginal.trim()) : null;
  const offset =
    typeof exif.OffsetTimeOriginal === 'string' ? OFFSET.exec(exif.OffsetTimeOriginal.trim()) : null;
  if (!time || !offset) return null;
  const [year, month, day, hour, minute, second] = time.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [sign, offsetHours, offsetMinutes] = [
    offset[1] === '-' ? -1 : 1,
    Number(offset[2]),
    Number(offset[3]),
  ];
  if (offsetHours > 14 || offsetMinutes > 59) return null;
  const subSecond = typeof exif.SubSecTimeOriginal === 'string' ? exif.SubSecTimeOriginal.trim() : '';
  const millis = /^\d{1,9}$/.test(subSecond) ? Math.floor(Number(`0.${subSecond}`) * 1000) : 0;
  const wallClock = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(wallClock);
  // Date.UTC rolls 2026:02:31 over into March: a date that does not exist is absurd.
  if (
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return null;
  const utc = wallClock - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  if (utc < EARLIEST_CAPTURE || utc > receivedAt.getTime() + LATEST_AFTER_RECEIPT_MS) return null;
  return new Date(utc).toISOString();
};

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** Degrees, minutes, seconds (EXIF rationals, as exifr gives them) and a hemisphere, as signed degrees. */
const degrees = (dms: unknown, ref: unknown, positive: string, negative: string): number | null => {
  if (!Array.isArray(dms) || dms.length !== 3 || !dms.every(finite)) return null;
  const [d, m, s] = dms as [number, number, number];
  if (d < 0 || m < 0 || m >= 60 || s < 0 || s >= 60) return null;
  const value = d + m / 60 + s / 3600;
  if (ref === positive) return value;
  if (ref === negative) return -value;
  return null;
};

/** Worse than 10 km is no position worth keeping as evidence of a place. */
const MAX_ACCURACY_METRES = 10_000;

/** Where the photo was taken: null if absent, out of range, or the (0, 0) of an unset receiver. */
export const captureLocation = (exif: ExifRecord): ImageFacts['location'] => {
  const latitude = degrees(exif.GPSLatitude, exif.GPSLatitudeRef, 'N', 'S');
  const longitude = degrees(exif.GPSLongitude, exif.GPSLongitudeRef, 'E', 'W');
  if (latitude === null || longitude === null) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180 || (latitude === 0 && longitude === 0))
    return null;
  const error = exif.GPSHPositioningError;
  const direction = exif.GPSImgDirection;
  return {
    latitude: Number(latitude.toFixed(7)),
    longitude: Number(longitude.toFixed(7)),
    accuracy: finite(error) && error >= 0 && error <= MAX_ACCURACY_METRES ? error : null,
    heading: finite(direction) && direction >= 0 && direction <= 360 ? direction % 360 : null,
  };
};

const MAX_DEVICE_TEXT = 128;

/** A camera's make or model as text: trimmed, without control characters, bounded; empty is null. */
const deviceText = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  // EXIF ASCII fields are NUL-padded; no control character is part of a name.
  const text = Array.from(value)
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(0, MAX_DEVICE_TEXT);
  return text === '' ? null : text;
};

export const captureDevice = (exif: ExifRecord): ImageFacts['device'] => {
  const make = deviceText(exif.Make);
  const model = deviceText(exif.Model);
  return make === null && model === null ? null : { make, model };
};
