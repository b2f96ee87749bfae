/** Geohash cells for the box filter: any box is served, within a bounded number of Queries and cells. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Box,
  boxesOf,
  COVER_SLACK,
  cellBounds,
  coverBoxes,
  encodeGeohash,
  keyRanges,
  MAX_COVER_RANGES,
} from '#shared/domain/geohash';

/** The documented bound (docs/api.md, Bounding-box cost): for boxes within 4:1 and at least 0.0005° (~50 m) a side. */
const COVER_RATIO_BOUND = 2.5;

const cover = (bl: [number, number], tr: [number, number]) =>
  coverBoxes(boxesOf({ latitude: bl[0], longitude: bl[1] }, { latitude: tr[0], longitude: tr[1] }));
const precisions = (cells: readonly string[]) => cells.map((c) => c.length);
const read = (ranges: ReturnType<typeof keyRanges>, key: string) =>
  ranges.some(({ from, to }) => key >= from && key <= to);

/** Boxes anywhere, of any size from a metre to most of the globe, some across the antimeridian. */
const anyBox = fc
  .record({
    south: fc.double({ min: -90, max: 90, noNaN: true }),
    height: fc.double({ min: 0, max: 180, noNaN: true }),
    west: fc.double({ min: -180, max: 180, noNaN: true }),
    width: fc.double({ min: 0, max: 360, noNaN: true }),
    scale: fc.integer({ min: 0, max: 6 }),
  })
  .map(({ south, height, west, width, scale }) => {
    const h = height / 10 ** scale;
    const w = width / 10 ** scale;
    const east = west + w > 180 ? west + w - 360 : west + w;
    return {
      bottomLeft: { latitude: Math.min(south, 90 - h), longitude: west },
      topRight: { latitude: Math.min(south, 90 - h) + h, longitude: east },
    };
  });

describe('geohash', () => {
  it('encodes known points, and a cell holds the points that encode to it', () => {
    expect(encodeGeohash(57.64911, 10.40744, 11)).toBe('u4pruydqqvj');
    expect(encodeGeohash(51.5074, -0.1278, 6)).toBe('gcpvj0');
    const cell = cellBounds('gcpvj0');
    expect(cell.south).toBeLessThanOrEqual(51.5074);
    expect(cell.north).toBeGreaterThan(51.5074);
    expect(cell.west).toBeLessThanOrEqual(-0.1278);
    expect(cell.east).toBeGreaterThan(-0.1278);
    expect(cellBounds('')).toEqual({ south: -90, west: -180, north: 90, east: 180 });
  });

  it('cells that follow one another in key order are one range; a gap starts another', () => {
    expect(keyRanges(['gcpv', 'gcpw'])).toEqual([{ from: 'gcpv', to: 'gcpw~' }]);
    expect(keyRanges(['gcq0', 'gcpz'])).toEqual([{ from: 'gcpz', to: 'gcq0~' }]);
    expect(keyRanges(['gcpz', 'gcq1'])).toHaveLength(2);
    expect(keyRanges(['zzz', '0'])).toHaveLength(2);
  });

  it('every point of any box, edges and corners included, lies in a range the cover reads', () => {
    fc.assert(
      fc.property(
        anyBox,
        fc.array(
          fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
          {
            maxLength: 20,
          },
        ),
        ({ bottomLeft, topRight }, fractions) => {
          const boxes = boxesOf(bottomLeft, topRight);
          const { ranges } = coverBoxes(boxes);
          expect(ranges.length).toBeLessThanOrEqual(MAX_COVER_RANGES);
          const corners: [number, number][] = [
            [0, 0],
            [0, 1],
            [1, 0],
            [1, 1],
          ];
          for (const box of boxes) {
            for (const [f, g] of [...corners, ...fractions]) {
              const lat = box.south + f * (box.north - box.south);
              const lng = box.west + g * (box.east - box.west);
              const key = `${encodeGeohash(lat, lng)}#id`;
              expect(read(ranges, key), `${lat},${lng} in ${JSON.stringify(box)}`).toBe(true);
            }
          }
        },
      ),
      { seed: 20261122, numRuns: 300 },
    );
  });

  it(`boxes within 4:1 and 50 m a side read at most ${COVER_RATIO_BOUND}× their surface`, () => {
    fc.assert(
      fc.property(
        fc.double({ min: Math.log10(0.0005), max: Math.log10(40), noNaN: true }),
        fc.double({ min: 1, max: 4, noNaN: true }),
        fc.boolean(),
        fc.double({ min: -85, max: 0, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        (logShort, aspect, tall, south, west) => {
          const short = 10 ** logShort;
          const [h, w] = tall ? [short * aspect, short] : [short, short * aspect];
          const east = west + w > 180 ? west + w - 360 : west + w;
          const { ratio, ranges } = coverBoxes(
            boxesOf({ latitude: south, longitude: west }, { latitude: south + h, longitude: east }),
          );
          expect(ratio).toBeLessThanOrEqual(COVER_RATIO_BOUND);
          expect(ranges.length).toBeLessThanOrEqual(MAX_COVER_RANGES);
        },
      ),
      { seed: 20261122, numRuns: 500 },
    );
  });

  it('the precision follows the box: finest along a street, coarsest over a continent', () => {
    const street = cover([54.32, -2.75], [54.325, -2.74]);
    const city = cover([54.28, -2.85], [54.36, -2.68]);
    const country = cover([49.9, -8.2], [60.9, 1.8]);
    const continent = cover([35, -25], [71, 45]);
    const finest = (c: { cells: string[] }) => Math.max(...precisions(c.cells));
    const coarsest = (c: { cells: string[] }) => Math.min(...precisions(c.cells));
    // Cells about a tenth of the box's side along its edges, coarser inside it.
    expect([street, city, country, continent].map(finest)).toEqual([8, 5, 3, 2]);
    expect([street, city, country, continent].map(coarsest)).toEqual([7, 5, 2, 1]);
    for (const c of [street, city, country, continent]) {
      expect(c.ranges.length).toBeLessThanOrEqual(MAX_COVER_RANGES);
      // Within the budget, refining stops as soon as the cells exceed the box by no more than the slack.
      expect(c.ratio).toBeLessThanOrEqual(1 + COVER_SLACK);
    }
  });

  it('a box over most of the globe reads the whole index in one Query, a hemisphere in two', () => {
    expect(cover([-90, -180], [90, 180])).toMatchObject({ cells: [''], ranges: [{ from: '', to: '~' }] });
    expect(cover([-80, -170], [85, 175]).cells).toEqual(['']);
    const north = cover([0, -180], [90, 180]);
    expect(north.ranges).toHaveLength(2);
    expect(north.ratio).toBe(1);
  });

  it('a point reads the one finest cell that holds it', () => {
    expect(cover([54, -2], [54, -2]).cells).toEqual([encodeGeohash(54, -2)]);
  });

  it('a box across the antimeridian is split in two, and its cover holds both sides', () => {
    const boxes = boxesOf({ latitude: -20, longitude: 170 }, { latitude: -10, longitude: -170 });
    expect(boxes).toEqual<Box[]>([
      { south: -20, west: 170, north: -10, east: 180 },
      { south: -20, west: -180, north: -10, east: -170 },
    ]);
    const { ranges, ratio } = coverBoxes(boxes);
    for (const [lat, lng] of [
      [-18.14, 178.44],
      [-13.83, -171.77],
      [-10, 180],
      [-20, -180],
    ] as const) {
      expect(read(ranges, `${encodeGeohash(lat, lng)}#id`), `${lat},${lng}`).toBe(true);
    }
    expect(ratio).toBeLessThanOrEqual(1 + COVER_SLACK);
  });
});
