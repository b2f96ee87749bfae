/** heic-decode 2.1.0 ships no types: the call this module makes (libheif-js, wasm). */
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    /** RGBA, 8 bits a channel, row by row. */
    data: Uint8ClampedArray;
  }
  /** Decodes the primary image, its transformations (rotation, mirroring) applied. */
  function decode(input: { buffer: Uint8Array }): Promise<DecodedImage>;
  export default decode;
}
