/**
 * A stand-in handler over the image processing module alone, bundled as the image worker is
 * (`infra/image-worker-bundle.ts`) by the worker bundle's test and the bench's `images` part: it inspects
 * and renders the base64 bytes it is given and answers what it made, with its process's peak memory.
 */
import { type ImageMediaType, inspectImage, renderVariants } from '#functions/images/processing/index';

export const handler = async (event: { bytes: string; media_type: ImageMediaType }) => {
  const bytes = Buffer.from(event.bytes, 'base64');
  const started = performance.now();
  const inspection = await inspectImage(bytes, event.media_type, new Date());
  if (!inspection.ok) return { inspection };
  const rendering = await renderVariants(bytes, inspection.facts);
  return {
    facts: inspection.facts,
    variants: rendering.ok
      ? rendering.variants.map(({ name, width, height, bytes }) => ({
          name,
          width,
          height,
          bytes: bytes.length,
        }))
      : rendering.reason,
    ms: Math.round(performance.now() - started),
    max_rss_kib: process.resourceUsage().maxRSS,
  };
};
