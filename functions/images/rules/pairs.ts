/**
 * Before/after pairs (pure): an image naming the image it answers (`pair_of`). A dispute turns on whether
 * the two were taken from the same place looking the same way: the pair's answer gives both places and
 * headings, the distance between them (haversine, metres) and the smallest angle between the headings,
 * and flags a pair further apart than the organisation's limits.
 */
import type { StoredLocation } from './location';

const EARTH_RADIUS_METRES = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

export const distanceMetres = (
  a: Pick<StoredLocation, 'latitude' | 'longitude'>,
  b: Pick<StoredLocation, 'latitude' | 'longitude'>,
) => {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h)));
};

/** The smallest angle between two headings, 0–180 degrees. */
export const headingDifference = (a: number, b: number) => {
  const d = Math.abs((((a - b) % 360) + 360) % 360);
  return d > 180 ? 360 - d : d;
};

export interface PairLimits {
  metres: number;
  degrees: number;
}

export interface PairAnswer {
  distance_metres: number | null;
  heading_difference: number | null;
  /** Why the pair is doubtful: further apart, or looking another way, than the limits; empty when not. */
  flags: ('too_far_apart' | 'headings_differ' | 'no_location')[];
}

/** The comparison of two visible places (null where a caller may not see one: then `no_location`). */
export const comparePair = (
  image: StoredLocation | null,
  other: StoredLocation | null,
  limits: PairLimits,
): PairAnswer => {
  if (!image || !other) return { distance_metres: null, heading_difference: null, flags: ['no_location'] };
  const distance = Math.round(distanceMetres(image, other) * 10) / 10;
  const turn =
    image.heading === null || other.heading === null
      ? null
      : Math.round(headingDifference(image.heading, other.heading) * 10) / 10;
  return {
    distance_metres: distance,
    heading_difference: turn,
    flags: [
      ...(distance > limits.metres ? (['too_far_apart'] as const) : []),
      ...(turn !== null && turn > limits.degrees ? (['headings_differ'] as const) : []),
    ],
  };
};
