/**
 * Geohashes, and the cells that cover a bounding box, for the box filter's index. A geohash cell of
 * precision p is a rectangle; every point inside it has a geohash starting with the cell's. Pure.
 */
const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';

export interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

export const encodeGeohash = (latitude: number, longitude: number, precision = 9): string => {
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

/** Height and width in degrees of a cell of the given precision. */
export const cellSize = (precision: number): { height: number; width: number } => {
  const bits = precision * 5;
  const lngBits = Math.ceil(bits / 2);
  const latBits = Math.floor(bits / 2);
  return { height: 180 / 2 ** latBits, width: 360 / 2 ** lngBits };
};

/** The cells of one precision that together cover a box (which must not cross the antimeridian). */
export const cellsCovering = (box: Box, precision: number): string[] => {
  const { height, width } = cellSize(precision);
  const cells = new Set<string>();
  for (let lat = box.south; lat < box.north + height; lat += height) {
    for (let lng = box.west; lng < box.east + width; lng += width) {
      cells.add(encodeGeohash(Math.min(lat, box.north), Math.min(lng, box.east), precision));
    }
  }
  return [...cells];
};

/** The index's partitions hold cells of this precision (≈1,250 × 625 km): few, and never hot per box. */
export const PARTITION_PRECISION = 2;

/**
 * The finest cells (precision ≥ the partition precision) that cover the boxes in at most `maxCells`,
 * so a box query reads only what lies near it. Null when even the coarsest cells are too many.
 */
export const coveringCells = (boxes: readonly Box[], maxCells = 32): string[] | null => {
  // Enumerate only where the arithmetic bound says the cells are few enough to be worth counting.
  const bound = (precision: number) => {
    const { height, width } = cellSize(precision);
    return boxes.reduce(
      (n, b) =>
        n + (Math.ceil((b.north - b.south) / height) + 1) * (Math.ceil((b.east - b.west) / width) + 1),
      0,
    );
  };
  for (let precision = 7; precision >= PARTITION_PRECISION; precision--) {
    if (bound(precision) > maxCells * 4) continue;
    const cells = [...new Set(boxes.flatMap((box) => cellsCovering(box, precision)))];
    if (cells.length <= maxCells) return cells;
  }
  if (bound(PARTITION_PRECISION) > maxCells * 4) return null;
  return [...new Set(boxes.flatMap((box) => cellsCovering(box, PARTITION_PRECISION)))];
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
