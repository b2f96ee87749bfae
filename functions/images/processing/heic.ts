/**
 * HEIC/HEIF pixels through libheif compiled to wasm (heic-decode over libheif-js, with libde265): sharp's
 * prebuilt libvips carries libheif for AVIF only, without an HEVC decoder, and ships no way to add one.
 * The decoder applies the container's rotation and mirroring, so its pixels are already upright.
 */
import decode from 'heic-decode';

export type DecodedHeic =
  | { ok: true; pixels: Uint8Array; width: number; height: number; channels: 4 }
  | { ok: false; reason: string };

export const decodeHeic = async (bytes: Uint8Array): Promise<DecodedHeic> => {
  try {
    const image = await decode({ buffer: bytes });
    if (image.width <= 0 || image.height <= 0 || image.data.length !== image.width * image.height * 4)
      return { ok: false, reason: 'The HEIC decoder returned no usable picture.' };
    const pixels = new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength);
    return { ok: true, pixels, width: image.width, height: image.height, channels: 4 };
  } catch (error) {
    return {
      ok: false,
      reason: `The HEIC decoder could not read the image: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
};
