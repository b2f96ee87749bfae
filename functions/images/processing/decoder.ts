/**
 * sharp (libvips) as the worker runs it: one image at a time in a 1,024 MB Lambda (about 0.6 of a vCPU),
 * so at most two libvips threads, and no operation cache (each invocation sees a different image: a cache
 * would only keep decoded pixels alive between them). Every decoder this module opens refuses more than
 * `MAX_PIXELS` before decoding a pixel.
 */
import { availableParallelism } from 'node:os';
import sharp, { type Sharp, type SharpOptions } from 'sharp';

/** 50 megapixels: above any phone camera's full resolution (48 MP), far below what 1,024 MB can decode. */
export const MAX_PIXELS = 50_000_000;

sharp.cache(false);
sharp.concurrency(Math.min(2, availableParallelism()));

/**
 * An image opened with the pixel limit (lifted only to read a header); `failOn` says how strict decoding is
 * (libvips' levels).
 */
export const openImage = (
  input: Uint8Array,
  options: Pick<SharpOptions, 'failOn' | 'raw' | 'limitInputPixels'> = {},
): Sharp => sharp(input, { limitInputPixels: MAX_PIXELS, ...options });

/** Raw pixels already decoded (a HEIC through the wasm decoder) into the same pipeline. */
export const openPixels = (pixels: Uint8Array, width: number, height: number, channels: 3 | 4): Sharp =>
  openImage(pixels, { raw: { width, height, channels } });
