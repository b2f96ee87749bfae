/**
 * Geohashes, and the cells that cover a bounding box, for the box filter's index. A geohash cell of
 * precision p is a rectangle; every point inside it has a geohash starting with the cell's, so one
 * `begins_with` on the index's sort key reads exactly one cell, whatever its precision. Pure.
 */
const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';

export interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** The precision the index stores: a 9-character cell is about 5 m across. */
export const INDEX_PRECISION = 9;

export const encodeGeohash = (latitude: number, longitude: number, precision = INDEX_PRECISION): string => {
  let lat: [number, number] = [-90, 90];
  let lng: [number, number] = [-180, 180];
  let hash = '';
  let bits = 0;
  let value = 0;
  let even = true;
  while (hash.length < precision) {
    const range = even ? lng : lat;
    const point = even ? longitude : latitude;
    const mid = (range[0] + range[1]) / 2;
    value <<= 1;
    if (point >= mid) {
      value |= 1;
      if (even) lng = [mid, lng[1]];
      else lat = [mid, lat[1]];
    } else if (even) lng = [lng[0], mid];
    else lat = [lat[0], mid];
    even = !even;
    if (++bits === 5) {
      hash += BASE32[value];
      bits = 0;
      value = 0;
    }
  }
  return hash;
};

/** The rectangle of a cell; `''` is the whole globe. Cells hold their south and west edges, not their north and east ones (but for 90° and 180°). */
export const cellBounds = (hash: string): Box => {
  const lat = [-90, 90];
  const lng = [-180, 180];
  let even = true;
  for (const char of hash) {
    const value = BASE32.indexOf(char);
    for (let bit = 4; bit >= 0; bit--) {
      const range = even ? lng : lat;
      const mid = ((range[0] ?? 0) + (range[1] ?? 0)) / 2;
      range[(value >> bit) & 1 ? 0 : 1] = mid;
      even = !even;
    }
  }
  return { south: lat[0] ?? -90, west: lng[0] ?? -180, north: lat[1] ?? 90, east: lng[1] ?? 180 };
};

const RADIANS = Math.PI / 180;

/** A box's share of the globe's surface (lat-long rectangles are not equal in area: cells near a pole are small). */
export const surfaceShare = (b: Box): number =>
  b.north <= b.south || b.east <= b.west
    ? 0
    : ((Math.sin(b.north * RADIANS) - Math.sin(b.south * RADIANS)) * (b.east - b.west)) / 720;

const intersection = (a: Box, b: Box): Box => ({
  south: Math.max(a.south, b.south),
  west: Math.max(a.west, b.west),
  north: Math.min(a.north, b.north),
  east: Math.min(a.east, b.east),
});

/** Whether a cell holds any point of a box (the box includes its edges; the cell only its south and west ones). */
const reaches = (cell: Box, box: Box) =>
  cell.south <= box.north &&
  (cell.north > box.south || cell.north === 90) &&
  cell.west <= box.east &&
  (cell.east > box.west || cell.east === 180);

const within = (cell: Box, box: Box) =>
  cell.south >= box.south && cell.north <= box.north && cell.west >= box.west && cell.east <= box.east;

/** At most this many key ranges (one Query each) per organisation for one box. */
export const MAX_COVER_RANGES = 32;
/** At most this many cells in a cover: bounds the work of choosing it. */
export const MAX_COVER_CELLS = 512;
/**
 * Refining stops once the cells reach no more than this share beyond the box's own surface: each
 * further range costs a Query (at least half a read unit) to save reading records near the edges.
 * Over random boxes: 0.1 gives 1.23× the surface in 31 ranges on average, 0.5 1.43× in 16, 1 1.77× in 10.
 */
export const COVER_SLACK = 0.5;
/**
 * Once the budget is spent most splits no longer fit; after this many refused in a row the cover is
 * taken as it is (same covers over random boxes as trying every cell, in half the time: ~1 ms a box).
 */
const PATIENCE = 16;

export interface KeyRange {
  /** The first cell of the run: every key of the run starts at or after it. */
  from: string;
  /** The last cell followed by `~`, above every key (`<geohash>#<id>`) of that cell. */
  to: string;
}

/** The next prefix in key order after every key that starts with `cell`; null past the last. */
const successor = (cell: string): string | null => {
  for (let s = cell; s.length > 0; s = s.slice(0, -1)) {
    const i = BASE32.indexOf(s.at(-1) ?? '');
    if (i < BASE32.length - 1) return s.slice(0, -1) + BASE32[i + 1];
  }
  return null;
};

/** Whether no key lies between the cells `a` and `b` (`a` first): one Query reads both. */
const adjoins = (a: string | undefined, b: string | undefined): boolean => {
  if (a === undefined || b === undefined) return false;
  const next = successor(a);
  return next !== null && b.startsWith(next) && /^0*$/.test(b.slice(next.length));
};

/**
 * Cells read as key ranges: geohashes sort in Z order, so cells that follow one another in key order
 * (the inside of a box often does) are one `BETWEEN` Query. `''` (the globe) is the whole index.
 */
export const keyRanges = (cells: readonly string[]): KeyRange[] => {
  const runs: { from: string; last: string }[] = [];
  for (const cell of [...cells].sort()) {
    const run = runs.at(-1);
    if (run && adjoins(run.last, cell)) run.last = cell;
    else runs.push({ from: cell, last: cell });
  }
  return runs.map(({ from, last }) => ({ from, to: `${last}~` }));
};

/** A cell of a cover being chosen, linked to its neighbours in key order. */
interface Piece {
  hash: string;
  bounds: Box;
  /** Surface outside every box: what reading the cell costs beyond the matches, for evenly spread records. */
  waste: number;
  inside: boolean;
  prev: Piece | null;
  next: Piece | null;
}

const piece = (hash: string, bounds: Box, boxes: readonly Box[]): Piece => {
  const covered = boxes.reduce((sum, b) => sum + surfaceShare(intersection(bounds, b)), 0);
  return {
    hash,
    bounds,
    waste: Math.max(0, surfaceShare(bounds) - covered),
    inside: boxes.some((b) => within(bounds, b)),
    prev: null,
    next: null,
  };
};

/**
 * Column and row of each of a cell's 32 children. Bits alternate longitude, latitude from the first
 * bit of the hash, so a character after an even number of characters splits longitude 8 ways and
 * latitude 4 ways, and after an odd number the other way round.
 */
const GRID = [0, 1].map((odd) =>
  [...BASE32].map((_, v) => {
    const bit = (n: number) => (v >> n) & 1;
    const [a, b] = [(bit(4) << 2) | (bit(2) << 1) | bit(0), (bit(3) << 1) | bit(1)];
    return odd ? { col: b, row: a, cols: 4, rows: 8 } : { col: a, row: b, cols: 8, rows: 4 };
  }),
);

/** The children of a cell that hold a point of some box. */
const childrenOf = (cell: Piece, boxes: readonly Box[]): Piece[] => {
  const { south, west, north, east } = cell.bounds;
  return (GRID[cell.hash.length % 2] ?? []).flatMap(({ col, row, cols, rows }, v) => {
    const h = (north - south) / rows;
    const w = (east - west) / cols;
    const bounds = {
      south: south + row * h,
      north: south + (row + 1) * h,
      west: west + col * w,
      east: west + (col + 1) * w,
    };
    return boxes.some((b) => reaches(bounds, b)) ? [piece(cell.hash + BASE32[v], bounds, boxes)] : [];
  });
};

/** A max-heap of the pieces still worth splitting, by waste. */
class ByWaste {
  private readonly items: Piece[] = [];
  push(p: Piece) {
    const a = this.items;
    a.push(p);
    for (let i = a.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if ((a[up]?.waste ?? 0) >= p.waste) break;
      [a[i], a[up]] = [a[up] as Piece, p];
      i = up;
    }
  }
  pop(): Piece | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || !last) return top;
    a[0] = last;
    for (let i = 0; ; ) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let big = i;
      if ((a[l]?.waste ?? -1) > (a[big]?.waste ?? -1)) big = l;
      if ((a[r]?.waste ?? -1) > (a[big]?.waste ?? -1)) big = r;
      if (big === i) break;
      [a[i], a[big]] = [a[big] as Piece, a[i] as Piece];
      i = big;
    }
    return top;
  }
}

export interface Cover {
  /** Geohash prefixes of mixed precision; `''` is the organisation's whole index. */
  cells: string[];
  ranges: KeyRange[];
  /** Surface of the cells over the box's surface (Infinity for a box with no surface: a point or a line). */
  ratio: number;
}

/**
 * The cells to read for a box (or the two halves of one across the antimeridian): greedy refinement
 * from the whole globe, always splitting the cell that wastes the most surface, keeping cells that lie
 * inside the box whole, down to the index's precision, while the cells stay within `maxRanges` key
 * ranges (Queries) and `maxCells`, until they exceed the box by no more than `slack` of its surface.
 * The precision therefore follows the box's size: fine along its edges, coarse inside it. A cell
 * whose 32 children are all read is read whole, so a box that covers most of the globe reads the
 * organisation's whole index in one Query.
 */
export const coverBoxes = (
  boxes: readonly Box[],
  { maxRanges = MAX_COVER_RANGES, maxCells = MAX_COVER_CELLS, slack = COVER_SLACK } = {},
): Cover => {
  const area = boxes.reduce((sum, b) => sum + surfaceShare(b), 0);
  let first: Piece = piece('', cellBounds(''), boxes);
  const queue = new ByWaste();
  const consider = (p: Piece) => {
    if (!p.inside && p.hash.length < INDEX_PRECISION) queue.push(p);
  };
  consider(first);
  let waste = first.waste;
  let cells = 1;
  let ranges = 1;
  let refused = 0;
  const joined = (a: Piece | null | undefined, b: Piece | null | undefined) =>
    adjoins(a?.hash, b?.hash) ? 1 : 0;
  while (area === 0 || waste > slack * area) {
    const worst = queue.pop();
    if (!worst) break;
    const children = childrenOf(worst, boxes);
    const inner = children.reduce((n, c, i) => n + joined(children[i - 1], c), 0);
    const nextRanges =
      ranges -
      (1 - joined(worst.prev, worst)) +
      (children.length - inner) -
      joined(worst.prev, children[0]) +
      joined(worst, worst.next) -
      joined(children.at(-1), worst.next);
    // Too many cells or ranges: the cell stays whole (a smaller one may still be split).
    if (cells - 1 + children.length > maxCells || nextRanges > maxRanges) {
      if (++refused >= PATIENCE) break;
      continue;
    }
    refused = 0;
    children.forEach((c, i) => {
      c.prev = children[i - 1] ?? worst.prev;
      c.next = children[i + 1] ?? worst.next;
      consider(c);
    });
    const [head, tail] = [children[0], children.at(-1)];
    if (!head || !tail) continue;
    if (worst.prev) worst.prev.next = head;
    else first = head;
    if (worst.next) worst.next.prev = tail;
    cells += children.length - 1;
    ranges = nextRanges;
    waste += children.reduce((sum, c) => sum + c.waste, 0) - worst.waste;
  }
  const hashes: string[] = [];
  for (let p: Piece | null = first; p; p = p.next) hashes.push(p.hash);
  const merged = mergeSiblings(hashes);
  const total = merged.reduce((sum, c) => sum + surfaceShare(cellBounds(c)), 0);
  return {
    cells: merged,
    ranges: keyRanges(merged),
    ratio: area > 0 ? total / area : Number.POSITIVE_INFINITY,
  };
};

/** Replaces any 32 siblings by their parent: the same surface, read as one cell. */
const mergeSiblings = (cells: readonly string[]): string[] => {
  const set = new Set(cells);
  for (let precision = INDEX_PRECISION; precision > 0; precision--) {
    const counts = new Map<string, number>();
    for (const cell of set) {
      if (cell.length === precision) counts.set(cell.slice(0, -1), (counts.get(cell.slice(0, -1)) ?? 0) + 1);
    }
    for (const [parent, count] of counts) {
      if (count < BASE32.length) continue;
      for (const c of BASE32) set.delete(parent + c);
      set.add(parent);
    }
  }
  return [...set].sort();
};

/** A box given by its corners, split in two when it crosses the antimeridian. */
export const boxesOf = (
  bottomLeft: { latitude: number; longitude: number },
  topRight: { latitude: number; longitude: number },
): Box[] =>
  bottomLeft.longitude <= topRight.longitude
    ? [
        {
          south: bottomLeft.latitude,
          west: bottomLeft.longitude,
          north: topRight.latitude,
          east: topRight.longitude,
        },
      ]
    : [
        { south: bottomLeft.latitude, west: bottomLeft.longitude, north: topRight.latitude, east: 180 },
        { south: bottomLeft.latitude, west: -180, north: topRight.latitude, east: topRight.longitude },
      ];
