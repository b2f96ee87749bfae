/** The images area's pure rules (issue 44): which position wins, pairs compared, who sees coordinates. */
import { describe, expect, it } from 'vitest';
import { chosenLocation } from '#functions/images/rules/location';
import { comparePair, distanceMetres, headingDifference } from '#functions/images/rules/pairs';
import { hiddenLocation, locationFor, maySeeSubject } from '#functions/images/rules/visibility';

const here = { latitude: 51.5, longitude: -0.125, accuracy: 5, heading: 90 };

describe('capture place (issue 44: EXIF wins over the declared position)', () => {
  it('EXIF GPS when in range, else the declaration as source device, else none', () => {
    const declared = { latitude: 53.48, longitude: -2.24, accuracy: null, heading: null };
    expect(chosenLocation(here, declared)).toEqual({ ...here, source: 'exif' });
    expect(chosenLocation({ ...here, latitude: 95 }, declared)).toEqual({ ...declared, source: 'device' });
    expect(chosenLocation(null, declared)).toEqual({ ...declared, source: 'device' });
    expect(chosenLocation(null, null)).toBeNull();
  });
});

describe('before/after pairs (issue 44)', () => {
  it('haversine metres: 0.001 degree of latitude is about 111 m', () => {
    expect(distanceMetres(here, { ...here, latitude: 51.501 })).toBeCloseTo(111.2, 0);
  });

  it('heading difference is the smaller angle, across north', () => {
    expect(headingDifference(350, 10)).toBe(20);
    expect(headingDifference(90, 270)).toBe(180);
  });

  it('flags a pair beyond the limits, and one whose place is unknown or hidden', () => {
    const limits = { metres: 25, degrees: 45 };
    const far = { ...here, latitude: 51.501, heading: 200, source: 'exif' as const };
    expect(comparePair({ ...here, source: 'exif' }, far, limits).flags).toEqual([
      'too_far_apart',
      'headings_differ',
    ]);
    expect(comparePair({ ...here, source: 'exif' }, { ...here, source: 'device' }, limits).flags).toEqual([]);
    expect(comparePair(null, far, limits)).toEqual({
      distance_metres: null,
      heading_difference: null,
      flags: ['no_location'],
    });
  });
});

describe('who sees coordinates and the image (issue 44)', () => {
  const holder = (...held: string[]) => ({ permissions: new Map([['org', new Set(held)]]) }) as never;
  const image = (visibility: string, subject?: string) => ({
    org_id: 'org',
    attributes: { location_visibility: visibility, location: here },
    rels: subject ? { subject } : {},
  });

  it('every serialisation hides restricted coordinates; organisation ones are shown', () => {
    expect(hiddenLocation(image('restricted').attributes).location).toBeNull();
    expect(hiddenLocation(image('organisation').attributes).location).toEqual(here);
  });

  it('restricted coordinates only to holders of images:view-original', () => {
    expect(locationFor(holder('images:view'), image('restricted'))).toBeNull();
    expect(locationFor(holder('images:view-original'), image('restricted'))).toEqual(here);
    expect(locationFor(holder('images:view'), image('organisation'))).toEqual(here);
  });

  it("an image is seen only with the view permission of its subject's area", () => {
    const familyOf = (type: string) => ({ vehicles: 'assets' })[type];
    expect(maySeeSubject(holder('images:view'), image('organisation'), familyOf)).toBe(true);
    expect(maySeeSubject(holder('images:view'), image('organisation', 'vehicles:v1'), familyOf)).toBe(false);
    expect(maySeeSubject(holder('assets:view'), image('organisation', 'vehicles:v1'), familyOf)).toBe(true);
    expect(maySeeSubject(holder('assets:view'), image('organisation', 'unknown:x'), familyOf)).toBe(false);
  });
});
