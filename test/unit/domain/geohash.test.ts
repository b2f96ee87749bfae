import { describe, expect, it } from 'vitest';
import { boxesOf, cellsCovering, coveringCells, encodeGeohash } from '#shared/domain/geo/geohash';

describe('geohash', () => {
  it('encodes known points', () => {
    expect(encodeGeohash(57.64911, 10.40744, 11)).toBe('u4pruydqqvj');
    expect(encodeGeohash(51.5074, -0.1278, 6)).toBe('gcpvj0');
  });

  it('every point inside a box lies in one of the cells covering it', () => {
    const [box] = boxesOf({ latitude: 51.28, longitude: -0.51 }, { latitude: 51.69, longitude: 0.33 });
    if (!box) throw new Error('no box');
    const cells = cellsCovering(box, 5);
    for (let i = 0; i < 500; i++) {
      const lat = box.south + Math.random() * (box.north - box.south);
      const lng = box.west + Math.random() * (box.east - box.west);
      const hash = encodeGeohash(lat, lng, 9);
      expect(
        cells.some((c) => hash.startsWith(c)),
        `${lat},${lng}`,
      ).toBe(true);
    }
  });

  it('chooses the finest precision within the cell budget', () => {
    const small = coveringCells(
      boxesOf({ latitude: 54.3, longitude: -2.8 }, { latitude: 54.35, longitude: -2.7 }),
    );
    expect(small?.every((c) => c.length >= 5)).toBe(true);
    expect(small?.length).toBeLessThanOrEqual(32);
    const country = coveringCells(
      boxesOf({ latitude: 49.9, longitude: -8.2 }, { latitude: 60.9, longitude: 1.8 }),
    );
    expect(country?.length).toBeLessThanOrEqual(32);
  });

  it('a box across the antimeridian is split in two', () => {
    expect(boxesOf({ latitude: -20, longitude: 170 }, { latitude: -10, longitude: -170 })).toEqual([
      { south: -20, west: 170, north: -10, east: 180 },
      { south: -20, west: -180, north: -10, east: -170 },
    ]);
  });

  it('the whole world is too many cells for a bounded query', () => {
    expect(
      coveringCells(boxesOf({ latitude: -90, longitude: -180 }, { latitude: 90, longitude: 180 })),
    ).toBeNull();
  });
});
