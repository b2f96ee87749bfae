/**
 * An image's vector layer in pixels of one rendering: arrows, boxes and text as one SVG laid over it, and
 * blur regions as rectangles to blur in the pixels themselves (before any variant is cut, so no variant
 * shows what they hide). Geometry arrives in 0..1 fractions of the width and height; a mark with a value
 * that is not a number is dropped, one outside the picture clamped to its edge. Text is escaped and
 * colours are only `#rgb[a]`/`#rrggbb[aa]` or a plain name, so nothing the client sends becomes markup.
 */
import type { Annotation } from './contract';

export interface PixelRegion {
  left: number;
  top: number;
  width: number;
  height: number;
}

const DEFAULT_COLOUR = '#ff3b30';
const COLOUR = /^(#[0-9a-fA-F]{3,4}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|[a-zA-Z]{3,20})$/;
const MAX_TEXT = 500;

const fraction = (value: number | undefined): number | null =>
  value === undefined || !Number.isFinite(value) ? null : Math.min(1, Math.max(0, value));

const colourOf = (annotation: Annotation) =>
  annotation.colour && COLOUR.test(annotation.colour) ? annotation.colour : DEFAULT_COLOUR;

/** Text as SVG character data: markup characters as references, control characters (invalid in XML) dropped. */
const escapeXml = (text: string) =>
  Array.from(text)
    .filter((c) => c.charCodeAt(0) >= 0x20 || c === '\n' || c === '\t')
    .map((c) => ('<>&"\''.includes(c) ? `&#${c.charCodeAt(0)};` : c))
    .join('');

/** The rectangle a box or blur mark covers, in whole pixels, at least one pixel each way; null if unusable. */
const rectangle = (annotation: Annotation, width: number, height: number): PixelRegion | null => {
  const x = fraction(annotation.x);
  const y = fraction(annotation.y);
  const w = fraction(annotation.width);
  const h = fraction(annotation.height);
  if (x === null || y === null || w === null || h === null) return null;
  const left = Math.min(width - 1, Math.floor(x * width));
  const top = Math.min(height - 1, Math.floor(y * height));
  return {
    left,
    top,
    width: Math.max(1, Math.min(width - left, Math.ceil(w * width))),
    height: Math.max(1, Math.min(height - top, Math.ceil(h * height))),
  };
};

/** The blur marks as pixel regions of a picture of this size. */
export const blurRegions = (
  annotations: readonly Annotation[],
  width: number,
  height: number,
): PixelRegion[] =>
  annotations.flatMap((a) => {
    if (a.kind !== 'blur') return [];
    const region = rectangle(a, width, height);
    return region ? [region] : [];
  });

const arrow = (a: Annotation, width: number, height: number, stroke: number): string | null => {
  const [x1, y1, x2, y2] = [fraction(a.x), fraction(a.y), fraction(a.x2), fraction(a.y2)];
  if (x1 === null || y1 === null || x2 === null || y2 === null) return null;
  const [ax, ay, bx, by] = [x1 * width, y1 * height, x2 * width, y2 * height];
  const angle = Math.atan2(by - ay, bx - ax);
  const head = stroke * 4;
  const wing = (side: number) =>
    `${(bx - head * Math.cos(angle + side * 0.45)).toFixed(1)},${(by - head * Math.sin(angle + side * 0.45)).toFixed(1)}`;
  const colour = colourOf(a);
  return (
    `<line x1="${ax.toFixed(1)}" y1="${ay.toFixed(1)}" x2="${bx.toFixed(1)}" y2="${by.toFixed(1)}" stroke="${colour}" stroke-width="${stroke}" stroke-linecap="round"/>` +
    `<polygon points="${bx.toFixed(1)},${by.toFixed(1)} ${wing(1)} ${wing(-1)}" fill="${colour}"/>`
  );
};

const box = (a: Annotation, width: number, height: number, stroke: number): string | null => {
  const r = rectangle(a, width, height);
  return r
    ? `<rect x="${r.left}" y="${r.top}" width="${r.width}" height="${r.height}" fill="none" stroke="${colourOf(a)}" stroke-width="${stroke}"/>`
    : null;
};

const label = (a: Annotation, width: number, height: number): string | null => {
  const [x, y] = [fraction(a.x), fraction(a.y)];
  const text = a.text?.slice(0, MAX_TEXT);
  if (x === null || y === null || !text) return null;
  const size = Math.max(10, Math.round(Math.min(width, height) * 0.04));
  return `<text x="${(x * width).toFixed(1)}" y="${(y * height).toFixed(1)}" font-family="sans-serif" font-size="${size}" font-weight="bold" fill="${colourOf(a)}" stroke="#ffffff" stroke-width="${Math.max(1, size / 8).toFixed(1)}" paint-order="stroke" dominant-baseline="hanging">${escapeXml(text)}</text>`;
};

/** Arrows, boxes and text drawn for a picture of this size; null when there is nothing to draw. */
export const overlaySvg = (
  annotations: readonly Annotation[],
  width: number,
  height: number,
): string | null => {
  const stroke = Math.max(2, Math.round(Math.min(width, height) / 200));
  const marks = annotations
    .map((a) =>
      a.kind === 'arrow'
        ? arrow(a, width, height, stroke)
        : a.kind === 'box'
          ? box(a, width, height, stroke)
          : a.kind === 'text'
            ? label(a, width, height)
            : null,
    )
    .filter((mark): mark is string => mark !== null);
  return marks.length === 0
    ? null
    : `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${marks.join('')}</svg>`;
};
