/**
 * Demo images (issue 44) for one organisation: a few small JPEGs made here by sharp with a phone's EXIF
 * (capture time, device, GPS near the organisation's town), uploaded through the real path (declared, PUT to
 * the presigned URL, completed) and processed by the image worker the `image.uploaded` consumer runs; the
 * last answers the first as a before/after pair.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { images } from '#functions/images/definitions';
import { processImage } from '#functions/images/worker';
import { createImage, updateImage } from '#functions/images/writes';
import { scopeOf } from '#shared/data/scope';
import { moveRecord } from '#shared/engine/transition';

/** EXIF GPS degrees as rationals of an absolute decimal value. */
const rationals = (value: number) => {
  const degrees = Math.floor(value);
  const minutes = Math.floor((value - degrees) * 60);
  const seconds = Math.round(((value - degrees) * 60 - minutes) * 60 * 100);
  return `${degrees}/1 ${minutes}/1 ${seconds}/100`;
};

const photo = (colour: string, at: { latitude: number; longitude: number }, taken: string, heading: number) =>
  sharp({ create: { width: 480, height: 360, channels: 3, background: colour } })
    .withExif({
      IFD0: { Make: 'Google', Model: 'Pixel 8' },
      IFD2: { DateTimeOriginal: taken, OffsetTimeOriginal: '+00:00' },
      IFD3: {
        GPSLatitudeRef: at.latitude >= 0 ? 'N' : 'S',
        GPSLatitude: rationals(Math.abs(at.latitude)),
        GPSLongitudeRef: at.longitude >= 0 ? 'E' : 'W',
        GPSLongitude: rationals(Math.abs(at.longitude)),
        GPSImgDirectionRef: 'T',
        GPSImgDirection: `${heading * 100}/100`,
        GPSHPositioningError: '6/1',
      },
    })
    .jpeg({ quality: 80 })
    .toBuffer();

export const loadDemoImages = async (orgId: string, centre: { latitude: number; longitude: number }) => {
  const scope = scopeOf([orgId]);
  const shots = [
    {
      name: 'chamber-before.jpg',
      colour: '#6b7b8c',
      caption: 'Valve chamber before works',
      day: '2026:11:02 09:12:00',
      heading: 40,
    },
    {
      name: 'trench.jpg',
      colour: '#7a6a52',
      caption: 'Trench at 1.2 m, shoring in place',
      day: '2026:11:03 11:40:00',
      heading: 120,
    },
    {
      name: 'chamber-after.jpg',
      colour: '#8c9aa8',
      caption: 'Valve chamber after reinstatement',
      day: '2026:11:09 15:05:00',
      heading: 45,
    },
  ];
  const ids: string[] = [];
  for (const [i, shot] of shots.entries()) {
    const at = {
      latitude: centre.latitude + 0.0004 * (i === 1 ? 3 : 0),
      longitude: centre.longitude + 0.00005 * i,
    };
    const bytes = await photo(shot.colour, at, shot.day, shot.heading);
    const image = await createImage(
      scope,
      orgId,
      {
        data: {
          type: 'images',
          attributes: {
            filename: shot.name,
            media_type: 'image/jpeg',
            size: bytes.length,
            sha256: createHash('sha256').update(bytes).digest('base64'),
            caption: shot.caption,
            location_visibility: i === 1 ? 'restricted' : 'organisation',
          },
        },
      },
      null,
    );
    const upload = image.meta.upload as { url: string; headers: Record<string, string> };
    const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
    if (!put.ok) throw new Error(`Demo image ${shot.name}: the upload answered ${put.status}`);
    await moveRecord(scope, images, image, 'complete', { principal: null, system: true });
    await processImage({ org_id: orgId, image_id: image.id });
    ids.push(image.id);
  }
  const [before, , after] = ids;
  if (before && after) {
    const { getItem } = await import('#shared/data/repository');
    const record = await getItem<Parameters<typeof updateImage>[1]>(images.keyOf(orgId, after), true);
    if (record)
      await updateImage(scope, record, {
        data: {
          type: 'images',
          id: after,
          relationships: { pair_of: { data: { type: 'images', id: before } } },
        },
      });
  }
};
