/**
 * Which content coding to answer with, from a request's `Accept-Encoding` (RFC 9110 §12.5.3): the coding
 * the client rates highest among those offered, `*` standing for any not named, `q=0` meaning "not this",
 * unless it rates `identity` higher still.
 * Without the header, or with only `identity`, the answer is sent as it is: a client that names no coding
 * may not be able to decode one.
 */

export type ContentCoding = 'br' | 'gzip';

/** On a tie the first wins: brotli is smaller than gzip at the same speed (docs/performance.md). */
const OFFERED: readonly ContentCoding[] = ['br', 'gzip'];

const QUALITY = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i;

/** Each named coding's quality; a malformed quality makes its entry count for nothing. */
const qualities = (header: string): Map<string, number> => {
  const rated = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [name = '', ...params] = entry.split(';').map((part) => part.trim());
    if (name === '') continue;
    const q = params.find((p) => /^q=/i.test(p));
    const quality = q === undefined ? 1 : QUALITY.test(q) ? Number(q.slice(2)) : 0;
    // `x-gzip` is gzip (RFC 9110 §8.4.1.3).
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase();
    rated.set(coding, Math.max(quality, rated.get(coding) ?? 0));
  }
  return rated;
};

/** The coding to compress with, or undefined to send the answer as it is. */
export const preferredCoding = (header: string | undefined): ContentCoding | undefined => {
  if (header === undefined) return undefined;
  const rated = qualities(header);
  const any = rated.get('*') ?? 0;
  let best: { coding: ContentCoding; quality: number } | undefined;
  for (const coding of OFFERED) {
    const quality = rated.get(coding) ?? any;
    if (quality > 0 && quality > (best?.quality ?? 0)) best = { coding, quality };
  }
  // A client that rates the answer as it is above every coding it accepts gets it so.
  const identity = rated.get('identity');
  if (best && identity !== undefined && identity > best.quality) return undefined;
  return best?.coding;
};
