/**
 * Where an image was taken (pure). Two claims may say: the EXIF GPS the camera wrote into the bytes, and
 * the position the uploading app declared (`device`). EXIF wins when it is present and in range: it was
 * written at the moment of capture and travels inside the bytes whose SHA-256 the service pins at
 * `complete`, so it cannot be changed afterwards without the hash saying so; a declared position is where
 * the app was at upload, which may be hours and miles later. The declaration is kept when EXIF has none.
 */
export interface Point {
  latitude: number;
  longitude: number;
  accuracy: number | null;
  heading: number | null;
}
export type StoredLocation = Point & { source: 'exif' | 'device' | 'none' };

export const inRange = (p: Pick<Point, 'latitude' | 'longitude'>) =>
  Number.isFinite(p.latitude) &&
  Number.isFinite(p.longitude) &&
  Math.abs(p.latitude) <= 90 &&
  Math.abs(p.longitude) <= 180;

export const chosenLocation = (exif: Point | null, declared: Point | null): StoredLocation | null => {
  if (exif && inRange(exif)) return { ...exif, source: 'exif' };
  if (declared && inRange(declared)) return { ...declared, source: 'device' };
  return null;
};
