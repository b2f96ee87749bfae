/**
 * The contract between image processing and the images area (issue 44): its types and the variants'
 * sizes. `index.ts` exports these with the two functions; they change only with a note in the commit
 * that changes them.
 */

export type ImageMediaType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/heic' | 'image/heif';
/** The only derivatives there are (no arbitrary sizes: no resize amplification). */
export type VariantName = 'thumb' | 'medium' | 'large';

/** Each variant's long side in pixels; an image smaller than that is never enlarged. */
export const VARIANTS: Readonly<Record<VariantName, number>> = Object.freeze({
  thumb: 256,
  medium: 1024,
  large: 2048,
});

export interface ImageFacts {
  /** Sniffed from the bytes, never trusted from the client. */
  media_type: ImageMediaType;
  /** After EXIF orientation is applied. */
  width: number;
  height: number;
  /**
   * EXIF DateTimeOriginal with OffsetTimeOriginal, as UTC ISO 8601; null if absent or absurd (before
   * 1990, or more than a day after received_at).
   */
  captured_at: string | null;
  /** Null if absent or out of range. */
  location: { latitude: number; longitude: number; accuracy: number | null; heading: number | null } | null;
  device: { make: string | null; model: string | null } | null;
}

export type Inspection =
  | { ok: true; facts: ImageFacts }
  | { ok: false; reason: 'type_mismatch' | 'corrupt' | 'too_many_pixels' | 'unsupported'; detail: string };

/** One mark of an image's vector layer; geometry in 0..1 fractions of the width and height. */
export interface Annotation {
  kind: 'arrow' | 'box' | 'text' | 'blur';
  x: number;
  y: number;
  width?: number;
  height?: number;
  x2?: number;
  y2?: number;
  text?: string;
  colour?: string;
}

export interface Variant {
  name: VariantName;
  bytes: Buffer;
  media_type: 'image/jpeg';
  width: number;
  height: number;
}

/** `ok: false` = keep the original, variants pending (a HEIC the decoder cannot read); never a throw. */
export type Rendering = { ok: true; variants: Variant[] } | { ok: false; reason: string };
