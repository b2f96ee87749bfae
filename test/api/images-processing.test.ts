/**
 * Images once uploaded (issue 44): the `image.uploaded` consumer runs the image worker (in this process, as
 * locally), which reads the pinned original from s3rver, asks the processing module for its facts and
 * variants, and makes the `ready` or `reject` move. The Done-when path (a phone's JPEG with GPS, and a HEIC,
 * ready with three metadata-free variants, the original provable by hash, coordinates hidden from those who
 * may not see them), then every bad file of the list, each a clean `rejected` or flagged, never a 5xx.
 */
import exifr from 'exifr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images } from '#functions/images/definitions';
import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import { type ApiResponse, startTestApi, type TestApi } from '../support/api';
import { deliverEvents, latestEvent } from '../support/event-stream';
import { sha256, uploadImage } from '../support/images';
import { bombJpeg, LONDON_PHONE, phoneHeic, phoneJpeg, undecodableHeic } from '../support/photos';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
let viewer: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Image Worker Org', 0);
  [admin, viewer] = await Promise.all([api.token(tenant.admin), api.token(tenant.viewer)]);
});
afterAll(() => api.close());

/** Uploads `bytes` declared as `media_type`, completes it, and runs the consumers (the worker among them). */
const processed = async (bytes: Buffer, attributes: Record<string, unknown> = {}) => {
  const { id, completed } = await uploadImage(api, tenant.org.id, admin, bytes, { attributes });
  expect(completed.status, completed.text).toBe(200);
  await deliverEvents(tenant.org.id);
  const res = await api.get(`/v3/images/${id}`, admin);
  expect(res.status, res.text).toBe(200);
  return { id, image: res.body.data };
};

/** Follows a delivery route's redirect by hand: its status, and the bytes at its Location. */
const delivered = async (path: string, token = admin) => {
  const res = await fetch(`${api.url}${path}`, {
    headers: { authorization: `Bearer ${token}` },
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  const bytes = location ? Buffer.from(await (await fetch(location)).arrayBuffer()) : null;
  return { status: res.status, location, bytes, body: location ? null : await res.json() };
};

describe('Done when: a phone photo becomes ready with three metadata-free variants (issue 44)', () => {
  let id: string;
  let image: ApiResponse['body'];
  let original: Buffer;

  beforeAll(async () => {
    original = await phoneJpeg(1600, 1200);
    ({ id, image } = await processed(original, { filename: 'IMG_0042.jpg' }));
  });

  it('is ready with the facts its EXIF gives: size, capture time in UTC, place (source exif), device', () => {
    expect(image.attributes).toMatchObject({
      status: 'ready',
      media_type: 'image/jpeg',
      width: 1600,
      height: 1200,
      // 13:14:15 at +02:00
      captured_at: '2026-05-04T11:14:15.000Z',
      device: { make: 'Apple', model: 'iPhone 15' },
      variants_status: 'ready',
      variants_reason: null,
      rejection: null,
    });
    expect(image.attributes.location).toMatchObject({ accuracy: 5, heading: 90, source: 'exif' });
    expect(image.attributes.location.latitude).toBeCloseTo(51.5, 4);
    expect(image.attributes.location.longitude).toBeCloseTo(-(7 / 60 + 30 / 3600), 4);
    expect(image.attributes.variants).toEqual({
      thumb: { width: 256, height: 192, size: expect.any(Number) },
      medium: { width: 1024, height: 768, size: expect.any(Number) },
      large: { width: 1600, height: 1200, size: expect.any(Number) },
    });
    expect(image.meta.allowed_transitions).toEqual([
      { verb: 'complete', allowed: false, reasons: ['An image ready cannot be uploaded.'] },
    ]);
  });

  it('each variant is a 302 to a short-lived signed URL of a JPEG with no EXIF, GPS, XMP or ICC (checked with exifr)', async () => {
    for (const name of ['thumb', 'medium', 'large'] as const) {
      const { status, location, bytes } = await delivered(`/v3/images/${id}/variants/${name}`, viewer);
      expect(status).toBe(302);
      expect(Number(new URL(location ?? '').searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
      if (!bytes) throw new Error('no bytes');
      expect(bytes.length).toBe(image.attributes.variants[name].size);
      expect(await exifr.parse(bytes, true)).toBeUndefined();
      expect(await exifr.gps(bytes)).toBeUndefined();
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe('jpeg');
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
    }
  });

  it('the original is provable by hash: its bytes, with their EXIF GPS, are what was declared', async () => {
    const { status, bytes } = await delivered(`/v3/images/${id}/original`);
    expect(status).toBe(303);
    if (!bytes) throw new Error('no bytes');
    expect(sha256(bytes)).toBe(image.attributes.sha256);
    expect(bytes.equals(original)).toBe(true);
    expect((await exifr.gps(bytes))?.latitude).toBeCloseTo(51.5, 4);
  });

  it('restricted coordinates are null to a caller without images:view-original, in the event too; organisation shows them', async () => {
    expect((await api.get(`/v3/images/${id}`, viewer)).body.data.attributes.location).toBeNull();
    const ready = await latestEvent(tenant.org.id, 'image.ready', id);
    expect((ready.data as { attributes: { location: unknown } }).attributes.location).toBeNull();
    const shown = await api.request('PATCH', `/v3/images/${id}`, {
      token: admin,
      body: { data: { type: 'images', id, attributes: { location_visibility: 'organisation' } } },
    });
    expect(shown.status, shown.text).toBe(200);
    expect((await api.get(`/v3/images/${id}`, viewer)).body.data.attributes.location.source).toBe('exif');
  });

  it('a variant name that is not one of the three is a 404 naming them', async () => {
    for (const name of ['huge', '300x301', 'original']) {
      const res = await api.get(`/v3/images/${id}/variants/${name}`, admin);
      expect(res.status, res.text).toBe(404);
      expect(res.body.errors[0].detail).toBe(
        `No variant ${name}: an image's variants are thumb, medium and large.`,
      );
    }
  });

  it('image.ready names the move (processing → ready)', async () => {
    const ready = await latestEvent(tenant.org.id, 'image.ready', id);
    expect((ready.data as { transition: unknown }).transition).toEqual({
      verb: 'ready',
      from: 'processing',
      to: 'ready',
    });
  });
});

describe('a HEIC from a phone (issue 44: never a 500 for HEIC)', () => {
  it('becomes ready with its EXIF facts and three JPEG variants', async () => {
    const { id, image } = await processed(phoneHeic(), {
      filename: 'IMG_0043.HEIC',
      media_type: 'image/heic',
    });
    expect(image.attributes).toMatchObject({
      status: 'ready',
      media_type: 'image/heic',
      width: 640,
      height: 480,
      variants_status: 'ready',
    });
    const { status, bytes } = await delivered(`/v3/images/${id}/variants/thumb`);
    expect(status).toBe(302);
    expect((await sharp(bytes ?? Buffer.alloc(0)).metadata()).format).toBe('jpeg');
  });

  it('one the decoder cannot read is kept and flagged: ready, variants pending with the reason, 409 for a variant', async () => {
    const { id, image } = await processed(undecodableHeic(), { media_type: 'image/heic' });
    expect(image.attributes.status).toBe('ready');
    expect(image.attributes.variants_status).toBe('pending');
    expect(image.attributes.variants_reason).toEqual(expect.any(String));
    expect(image.attributes.variants).toBeNull();
    const variant = await api.get(`/v3/images/${id}/variants/thumb`, admin);
    expect(variant.status, variant.text).toBe(409);
    expect(variant.body.errors[0].detail).toMatch(/variants are not ready/);
    expect((await delivered(`/v3/images/${id}/original`)).status).toBe(303);
  });
});

describe('bad files (issue 44): each a clean rejected with its reason, the original kept, no 5xx', () => {
  const rejected = async (bytes: Buffer, reason: string, attributes: Record<string, unknown> = {}) => {
    const { id, image } = await processed(bytes, attributes);
    expect(image.attributes.status).toBe('rejected');
    expect(image.attributes.rejection).toEqual({ reason, detail: expect.any(String) });
    expect(image.attributes.variants_status).toBe('none');
    const record = await getItem<StoredResource>(images.keyOf(tenant.org.id, id), true);
    expect(record?.object_key).toEqual(expect.any(String));
    expect(record?.variant_keys).toBeUndefined();
    await latestEvent(tenant.org.id, 'image.rejected', id);
    return id;
  };

  it('a PNG declared as JPEG: type_mismatch', async () => {
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    await rejected(png, 'type_mismatch');
  });

  it('a decompression bomb (a tiny file declaring 50,000 × 50,000): too_many_pixels, refused before decoding', async () => {
    const bomb = await bombJpeg();
    expect(bomb.length).toBeLessThan(2000);
    await rejected(bomb, 'too_many_pixels');
  });

  it('a corrupt JPEG (cut short): corrupt', async () => {
    const whole = await phoneJpeg(400, 300);
    await rejected(whole.subarray(0, Math.floor(whole.length / 2)), 'corrupt');
  });
});

describe('capture time and place (issue 44: absurd EXIF, and which position wins)', () => {
  it('absurd EXIF dates and coordinates are dropped: captured_at and location null', async () => {
    const { image } = await processed(
      await phoneJpeg(320, 240, {
        ...LONDON_PHONE,
        takenAt: '1970:01:01 00:00:00',
        latitude: { ref: 'N', dms: '95/1 0/1 0/1' },
      }),
    );
    expect(image.attributes.status).toBe('ready');
    expect(image.attributes.captured_at).toBeNull();
    expect(image.attributes.location).toBeNull();
  });

  it('a capture time more than a day after the upload is absurd too', async () => {
    const { image } = await processed(
      await phoneJpeg(320, 240, { ...LONDON_PHONE, takenAt: '2099:01:01 00:00:00' }),
    );
    expect(image.attributes.captured_at).toBeNull();
  });

  it('EXIF GPS wins over the position the app declared; the declaration is kept as source device without it', async () => {
    const declared = { latitude: 53.48, longitude: -2.24, accuracy: 12, heading: 180 };
    const withExif = await processed(await phoneJpeg(320, 240), { location: declared });
    expect(withExif.image.attributes.location.source).toBe('exif');
    expect(withExif.image.attributes.location.latitude).toBeCloseTo(51.5, 4);
    const { latitude: _lat, longitude: _lon, ...noGps } = LONDON_PHONE;
    const without = await processed(await phoneJpeg(320, 240, noGps), { location: declared });
    expect(without.image.attributes.location).toEqual({ ...declared, source: 'device' });
  });
});

describe('the collection (issue 44: index-backed filters; a box only finds what the caller may see)', () => {
  it('filters by captured_at, uploaded_by and a bounding box that leaves restricted images to view-original holders', async () => {
    const { id } = await processed(
      await phoneJpeg(320, 240, { ...LONDON_PHONE, takenAt: '2025:03:01 09:00:00', offset: '+00:00' }),
    );
    const org = `/v3/orgs/${tenant.org.id}/images`;
    const window = await api.get(
      `${org}?filter[captured_at.since]=2025-03-01T00:00:00Z&filter[captured_at.until]=2025-03-02T00:00:00Z`,
      admin,
    );
    expect(window.status, window.text).toBe(200);
    expect(window.body.data.map((i: { id: string }) => i.id)).toEqual([id]);
    const box = 'filter[location.box.bottom_left]=51.4,-0.2&filter[location.box.top_right]=51.6,0.0';
    const mine = await api.get(`${org}?${box}`, admin);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.data.map((i: { id: string }) => i.id)).toContain(id);
    const theirs = await api.get(`${org}?${box}`, viewer);
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body.data.map((i: { id: string }) => i.id)).not.toContain(id);
    await api.request('PATCH', `/v3/images/${id}`, {
      token: admin,
      body: { data: { type: 'images', id, attributes: { location_visibility: 'organisation' } } },
    });
    const shown = await api.get(`${org}?${box}`, viewer);
    expect(shown.body.data.map((i: { id: string }) => i.id)).toContain(id);
  });
});

describe('annotations (issue 44: a vector layer burnt only into the variants)', () => {
  const layer = {
    annotations: [
      { kind: 'arrow', x: 0.1, y: 0.1, x2: 0.5, y2: 0.5, colour: '#ff0000' },
      { kind: 'box', x: 0.4, y: 0.4, width: 0.3, height: 0.3 },
      { kind: 'text', x: 0.05, y: 0.9, text: 'Crack in chamber wall' },
      { kind: 'blur', x: 0.6, y: 0.05, width: 0.3, height: 0.3 },
    ],
  };

  it('PUT replaces the layer; variants are pending (409) until the worker draws them again; the original never changes', async () => {
    const original = await phoneJpeg(800, 600);
    const { id } = await processed(original);
    const before = await delivered(`/v3/images/${id}/variants/medium`);
    const put = await api.request('PUT', `/v3/images/${id}/annotations`, {
      token: admin,
      body: { meta: layer },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.meta).toEqual({ ...layer, variants_status: 'pending' });
    expect((await api.get(`/v3/images/${id}/variants/medium`, admin)).status).toBe(409);
    await latestEvent(tenant.org.id, 'image.annotated', id);
    await deliverEvents(tenant.org.id);
    const got = await api.get(`/v3/images/${id}/annotations`, viewer);
    expect(got.status, got.text).toBe(200);
    expect(got.body.meta).toEqual({ ...layer, variants_status: 'ready' });
    const after = await delivered(`/v3/images/${id}/variants/medium`);
    expect(after.status).toBe(302);
    expect(after.bytes?.equals(before.bytes ?? Buffer.alloc(0))).toBe(false);
    expect(await exifr.parse(after.bytes ?? Buffer.alloc(0), true)).toBeUndefined();
    const kept = await delivered(`/v3/images/${id}/original`);
    expect(kept.bytes?.equals(original)).toBe(true);
  });

  it.each([
    ['a region outside the picture', { kind: 'box', x: 0.8, y: 0.1, width: 0.5, height: 0.1 }],
    ['a point past the edge', { kind: 'arrow', x: 1.2, y: 0, x2: 0, y2: 0 }],
    ['an unknown kind', { kind: 'circle', x: 0.5, y: 0.5 }],
    ['text without text', { kind: 'text', x: 0.5, y: 0.5 }],
    ['a colour that is not #rrggbb', { kind: 'box', x: 0, y: 0, width: 0.1, height: 0.1, colour: 'red' }],
  ])('refuses %s with a 400 pointing into the layer, writing nothing', async (_what, mark) => {
    const { id } = await processed(await phoneJpeg(64, 48));
    const res = await api.request('PUT', `/v3/images/${id}/annotations`, {
      token: admin,
      body: { meta: { annotations: [mark] } },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source.pointer).toMatch(/^\/meta\/annotations\/0/);
    const record = await getItem<StoredResource>(images.keyOf(tenant.org.id, id), true);
    expect(record?.annotations).toBeUndefined();
    expect(record?.attributes.variants_status).toBe('ready');
  });

  it('an image not ready yet cannot be annotated: 409', async () => {
    const bytes = await phoneJpeg(64, 48);
    const { id } = await uploadImage(api, tenant.org.id, admin, bytes);
    const res = await api.request('PUT', `/v3/images/${id}/annotations`, {
      token: admin,
      body: { meta: layer },
    });
    expect(res.status, res.text).toBe(409);
    await deliverEvents(tenant.org.id);
  });
});

describe('before/after pairs (issue 44: both places and headings, the distance, flagged when too far apart)', () => {
  it('GET answers meta.pair: both places, the distance in metres and the heading difference, flagged over the limits', async () => {
    const before = await processed(await phoneJpeg(320, 240));
    // About 200 m north and facing west: over 25 m and 45 degrees.
    const after = await processed(
      await phoneJpeg(320, 240, {
        ...LONDON_PHONE,
        latitude: { ref: 'N', dms: '51/1 30/1 648/100' },
        headingDegrees: 270,
      }),
    );
    const paired = await api.request('PATCH', `/v3/images/${after.id}`, {
      token: admin,
      body: {
        data: {
          type: 'images',
          id: after.id,
          relationships: { pair_of: { data: { type: 'images', id: before.id } } },
        },
      },
    });
    expect(paired.status, paired.text).toBe(200);
    const { pair } = paired.body.data.meta;
    expect(pair).toMatchObject({
      image: before.id,
      visible: true,
      heading_difference: 180,
      flags: ['too_far_apart', 'headings_differ'],
      limits: { metres: 25, degrees: 45 },
    });
    expect(pair.distance_metres).toBeGreaterThan(190);
    expect(pair.distance_metres).toBeLessThan(210);
    expect(pair.places.this.heading).toBe(270);
    expect(pair.places.pair.heading).toBe(90);
    // Without images:view-original, restricted places are not shown, and the pair cannot be compared.
    const hidden = await api.get(`/v3/images/${after.id}`, viewer);
    expect(hidden.body.data.meta.pair).toMatchObject({
      places: { this: null, pair: null },
      distance_metres: null,
      flags: ['no_location'],
    });
  });

  it('a pair taken from the same place looking the same way is not flagged; an image cannot pair with itself', async () => {
    const one = await processed(await phoneJpeg(320, 240));
    const two = await processed(await phoneJpeg(320, 240), { filename: 'after.jpg' });
    const res = await api.request('PATCH', `/v3/images/${two.id}`, {
      token: admin,
      body: {
        data: {
          type: 'images',
          id: two.id,
          relationships: { pair_of: { data: { type: 'images', id: one.id } } },
        },
      },
    });
    expect(res.body.data.meta.pair).toMatchObject({ distance_metres: 0, heading_difference: 0, flags: [] });
    const self = await api.request('PATCH', `/v3/images/${two.id}`, {
      token: admin,
      body: {
        data: {
          type: 'images',
          id: two.id,
          relationships: { pair_of: { data: { type: 'images', id: two.id } } },
        },
      },
    });
    expect(self.status, self.text).toBe(400);
  });
});
