/**
 * Image processing (issue 44): the pixels, and nothing else. Pure over bytes: no DynamoDB, no S3; the
 * images area's worker (`functions/images/worker.ts`) reads an original, calls these, and stores what they
 * give. The contract's types are in `contract.ts`.
 *
 * - `inspectImage(bytes, declared, receivedAt)`: reads facts without decoding the whole image (pixel limit
 *   enforced before decoding).
 * - `renderVariants(bytes, facts, annotations?)`: orientation normalised, re-encoded with NO metadata (no
 *   EXIF, no GPS, no XMP, no ICC beyond sRGB), annotations burnt in; `{ ok: false }`, never a throw.
 */
export * from './contract';
export { inspectImage } from './inspect';
export { renderVariants } from './render';
