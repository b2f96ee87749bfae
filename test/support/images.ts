/**
 * Images for tests, generated here with sharp (never fixtures from the internet): a phone's JPEG with EXIF
 * capture time, device and GPS, and the upload a client makes (declare → PUT to the presigned URL →
 * complete).
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { ApiResponse, TestApi } from './api';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

export interface PhoneShot {
  width?: number;
  height?: number;
  /** EXIF DateTimeOriginal as the camera writes it (`2026:11:20 10:15:00`) and its offset. */
  taken?: string;
  offset?: string;
  /** Decimal degrees; null for a photo without GPS. Out-of-range values are written as given (absurd EXIF). */
  latitude?: number | null;
  longitude?: number;
  heading?: number;
  make?: string;
  model?: string;
}

/** EXIF GPS degrees as rationals (`51/1 30/1 323000/10000`) of an absolute decimal value. */
const rationalDegrees = (value: number) => {
  const degrees = Math.floor(value);
  const minutes = Math.floor((value - degrees) * 60);
  const seconds = Math.round(((value - degrees) * 60 - minutes) * 60 * 10_000);
  return `${degrees}/1 ${minutes}/1 ${seconds}/10000`;
};

/** A JPEG as a phone writes one: EXIF with make, model, capture time and offset, and GPS with a heading. */
export const phoneJpeg = async (shot: PhoneShot = {}) => {
  const latitude = shot.latitude === undefined ? 51.50897 : shot.latitude;
  const longitude = shot.longitude ?? -0.12879;
  return sharp({
    create: {
      width: shot.width ?? 640,
      height: shot.height ?? 480,
      channels: 3,
      background: { r: 90, g: 120, b: 160 },
    },
  })
    .withExif({
      IFD0: { Make: shot.make ?? 'Apple', Model: shot.model ?? 'iPhone 15 Pro' },
      IFD2: {
        DateTimeOriginal: shot.taken ?? '2026:11:20 10:15:00',
        OffsetTimeOriginal: shot.offset ?? '+01:00',
      },
      ...(latitude !== null && {
        IFD3: {
          GPSLatitudeRef: latitude >= 0 ? 'N' : 'S',
          GPSLatitude: rationalDegrees(Math.abs(latitude)),
          GPSLongitudeRef: longitude >= 0 ? 'E' : 'W',
          GPSLongitude: rationalDegrees(Math.abs(longitude)),
          GPSImgDirectionRef: 'T',
          GPSImgDirection: `${Math.round((shot.heading ?? 90) * 100)}/100`,
          GPSHPositioningError: '5/1',
        },
      }),
    })
    .jpeg({ quality: 80 })
    .toBuffer();
};

/** The create body of an image declaring `bytes` (overrides for the bad-input tests). */
export const imageBody = (
  bytes: Uint8Array,
  attributes: Record<string, unknown> = {},
  relationships = {},
) => ({
  data: {
    type: 'images',
    attributes: {
      filename: 'photo.jpg',
      media_type: 'image/jpeg',
      size: bytes.length,
      sha256: sha256(bytes),
      ...attributes,
    },
    ...(Object.keys(relationships).length > 0 && { relationships }),
  },
});

/** Declares an image, PUTs `bytes` (or `put`, the bytes actually sent) and completes it: the completion's answer. */
export const uploadImage = async (
  api: TestApi,
  orgId: string,
  token: string,
  bytes: Uint8Array,
  {
    attributes = {},
    relationships = {},
    put = bytes,
  }: { attributes?: Record<string, unknown>; relationships?: object; put?: Uint8Array } = {},
): Promise<{ id: string; created: ApiResponse; completed: ApiResponse }> => {
  const created = await api.request('POST', `/v3/orgs/${orgId}/images`, {
    token,
    body: imageBody(bytes, attributes, relationships),
  });
  expect(created.status, created.text).toBe(201);
  const upload = created.body.data.meta.upload;
  const stored = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: put });
  expect(stored.status).toBe(200);
  const id = created.body.data.id as string;
  const completed = await api.request('POST', `/v3/images/${id}/complete`, { token });
  return { id, created, completed };
};
