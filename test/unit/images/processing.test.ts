/**
 * Image processing (issue 44): what the worker learns from an upload's bytes and the variants it writes.
 * Every image is made here by sharp (EXIF through `withExif`), but the one real HEIC (a fixture, since sharp
 * cannot encode HEVC: see test/support/photos.ts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_PIXELS } from '#functions/images/processing/decoder';
import { captureLocation, captureTime, readExif } from '#functions/images/processing/exif-facts';
import {
  type Annotation,
  type ImageFacts,
  inspectImage,
  renderVariants,
  VARIANTS,
  type Variant,
} from '#functions/images/processing/index';
import { bombJpeg, LONDON_PHONE, phoneHeic, phoneJpeg, undecodableHeic } from '../../support/photos';

const RECEIVED_AT = new Date('2026-05-04T12:00:00.000Z');

const LONDON_FACTS = {
  captured_at: '2026-05-04T11:14:15.000Z',
  location: { latitude: 51.5, longitude: -0.125, accuracy: 5, heading: 90 },
  device: { make: 'Apple', model: 'iPhone 15' },
};

const factsOf = async (bytes: Uint8Array, declared: ImageFacts['media_type']): Promise<ImageFacts> => {
  const inspection = await inspectImage(bytes, declared, RECEIVED_AT);
  if (!inspection.ok) throw new Error(`Refused: ${inspection.reason} (${inspection.detail})`);
  return inspection.facts;
};

const variantsOf = async (bytes: Uint8Array, facts: ImageFacts, annotations?: readonly Annotation[]) => {
  const rendering = await renderVariants(bytes, facts, annotations);
  if (!rendering.ok) throw new Error(`Not rendered: ${rendering.reason}`);
  return rendering.variants;
};

/** Everything a reader of the variant's bytes could find: EXIF (GPS included), XMP, IPTC, ICC. */
/** Statistics of one rectangle of a picture (sharp's `stats()` reads its input, so the cut is made first). */
const regionStats = async (bytes: Buffer, left: number, top: number, width: number, height: number) =>
  sharp(await sharp(bytes).extract({ left, top, width, height }).png().toBuffer()).stats();

const metadataLeft = async (variant: Variant) => {
  const meta = await sharp(variant.bytes).metadata();
  const exif = await exifr.parse(variant.bytes, {
    tiff: true,
    exif: true,
    gps: true,
    xmp: true,
    iptc: true,
    icc: true,
  });
  const gps = await exifr.gps(variant.bytes).catch(() => undefined);
  return {
    exif: meta.exif ?? null,
    xmp: meta.xmp ?? null,
    iptc: meta.iptc ?? null,
    icc: meta.icc ?? null,
    parsed: exif ?? null,
    gps: gps ?? null,
  };
};
const NO_METADATA = { exif: null, xmp: null, iptc: null, icc: null, parsed: null, gps: null };

describe('inspectImage: facts from the bytes, before any full decode (issue 44, images)', () => {
  it("a phone JPEG's facts: type from the bytes, size, capture time at its offset in UTC, GPS with accuracy and heading, device", async () => {
    const facts = await factsOf(await phoneJpeg(800, 600), 'image/jpeg');
    expect(facts).toEqual({ media_type: 'image/jpeg', width: 800, height: 600, ...LONDON_FACTS });
  });

  it('width and height are after EXIF orientation (a portrait photo stored sideways is portrait)', async () => {
    const facts = await factsOf(await phoneJpeg(400, 200, { ...LONDON_PHONE, orientation: 6 }), 'image/jpeg');
    expect([facts.width, facts.height]).toEqual([200, 400]);
  });

  it("a real HEIC (HEVC) gives the same facts: the container's size and EXIF, without decoding", async () => {
    const facts = await factsOf(phoneHeic(), 'image/heic');
    expect(facts).toEqual({ media_type: 'image/heic', width: 640, height: 480, ...LONDON_FACTS });
  });

  it('HEIC and HEIF are one family: a HEIC declared image/heif is taken, its type the sniffed one', async () => {
    expect((await factsOf(phoneHeic(), 'image/heif')).media_type).toBe('image/heic');
  });

  it('PNG and WebP are read too; a photo without EXIF has no capture time, place or device', async () => {
    const pixels = sharp({ create: { width: 30, height: 20, channels: 4, background: '#336699cc' } });
    for (const [bytes, type] of [
      [await pixels.clone().png().toBuffer(), 'image/png'],
      [await pixels.clone().webp().toBuffer(), 'image/webp'],
    ] as const) {
      expect(await factsOf(bytes, type)).toEqual({
        media_type: type,
        width: 30,
        height: 20,
        captured_at: null,
        location: null,
        device: null,
      });
    }
  });

  it('bad input: a PNG declared as JPEG (and a JPEG declared as WebP) is a type_mismatch', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(await inspectImage(png, 'image/jpeg', RECEIVED_AT)).toMatchObject({
      ok: false,
      reason: 'type_mismatch',
      detail: 'The file was declared image/jpeg but its bytes are image/png.',
    });
    expect(await inspectImage(await phoneJpeg(16, 16), 'image/webp', RECEIVED_AT)).toMatchObject({
      ok: false,
      reason: 'type_mismatch',
    });
  });

  it('bad input: a decompression bomb (a few hundred bytes declaring 50,000 × 50,000) is refused by the pixel limit, memory bounded', async () => {
    const bomb = await bombJpeg(50_000, 50_000);
    expect(bomb.length).toBeLessThan(1_000);
    const peakBefore = process.resourceUsage().maxRSS;
    const inspection = await inspectImage(bomb, 'image/jpeg', RECEIVED_AT);
    expect(inspection).toMatchObject({ ok: false, reason: 'too_many_pixels' });
    // Decoding 2.5 gigapixels would need 7.5 GB; the process's peak resident set did not grow by 64 MB.
    expect(process.resourceUsage().maxRSS - peakBefore).toBeLessThan(64 * 1024);
    // Rendering, even handed facts that lie, reads the header again and refuses it as well.
    const lying: ImageFacts = {
      media_type: 'image/jpeg',
      width: 10,
      height: 10,
      captured_at: null,
      location: null,
      device: null,
    };
    expect(await renderVariants(bomb, lying)).toEqual({
      ok: false,
      reason: 'The image has more pixels than the limit.',
    });
    expect(process.resourceUsage().maxRSS - peakBefore).toBeLessThan(64 * 1024);
  });

  it('the pixel limit is 50 megapixels: 7,100 × 7,100 declared is refused, a 48 MP phone sensor is not', async () => {
    expect(MAX_PIXELS).toBe(50_000_000);
    expect(await inspectImage(await bombJpeg(7_100, 7_100), 'image/jpeg', RECEIVED_AT)).toMatchObject({
      reason: 'too_many_pixels',
    });
    // 8,000 × 6,000 declared passes the limit, then the validating decode finds the data missing.
    expect(await inspectImage(await bombJpeg(8_000, 6_000), 'image/jpeg', RECEIVED_AT)).toMatchObject({
      reason: 'corrupt',
    });
  });

  it('bad input: a corrupt JPEG (cut short, or a valid header over garbage) and bytes of no image are corrupt', async () => {
    const jpeg = await phoneJpeg(320, 240);
    const cut = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    const garbage = Buffer.concat([jpeg.subarray(0, 4), Buffer.alloc(2_000, 0x5a)]);
    for (const bytes of [cut, garbage, Buffer.alloc(0), Buffer.from('%PDF-1.7 not an image')]) {
      expect(await inspectImage(bytes, 'image/jpeg', RECEIVED_AT)).toMatchObject({
        ok: false,
        reason: 'corrupt',
      });
    }
  });

  it('an image in a format not taken (GIF, TIFF, an SVG) never reaches a decoder: unsupported, or corrupt for text', async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const tiff = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    expect(await inspectImage(gif, 'image/png', RECEIVED_AT)).toMatchObject({ reason: 'unsupported' });
    expect(await inspectImage(tiff, 'image/jpeg', RECEIVED_AT)).toMatchObject({ reason: 'unsupported' });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9000" height="9000"/>');
    expect(await inspectImage(svg, 'image/png', RECEIVED_AT)).toMatchObject({ reason: 'corrupt' });
  });

  it('bad input: absurd EXIF (a 1970 date, latitude 95°, heading 400°, accuracy -1) gives nulls, never a throw', async () => {
    const absurd = await phoneJpeg(64, 48, {
      make: 'Acme',
      takenAt: '1970:01:01 00:00:00',
      offset: '+00:00',
      latitude: { ref: 'N', dms: '95/1 0/1 0/1' },
      longitude: { ref: 'E', dms: '10/1 0/1 0/1' },
      headingDegrees: 400,
      accuracyMetres: -1,
    });
    const facts = await factsOf(absurd, 'image/jpeg');
    expect(facts).toMatchObject({ captured_at: null, location: null, device: { make: 'Acme', model: null } });
  });

  it('a malformed EXIF block is no EXIF at all, not a failure', async () => {
    expect(await readExif(Buffer.from('Exif\0\0II*\0\xff\xff\xff\xff garbage', 'latin1'))).toEqual({});
    expect(await readExif(undefined)).toEqual({});
  });
});

describe('capture time and place: the range checks (issue 44, absurd EXIF)', () => {
  const at = (DateTimeOriginal: string, OffsetTimeOriginal?: string, SubSecTimeOriginal?: string) =>
    captureTime({ DateTimeOriginal, OffsetTimeOriginal, SubSecTimeOriginal }, RECEIVED_AT);

  it('the offset is applied to reach UTC, sub-seconds kept', () => {
    expect(at('2026:05:04 08:30:00', '-05:30', '25')).toBe('2026-05-04T14:00:00.250Z');
    expect(at('2026:01:01 00:30:00', '+01:00')).toBe('2025-12-31T23:30:00.000Z');
  });

  it('null without an offset (the zone is unknown), before 1990, more than a day after receipt, or a day that does not exist', () => {
    expect(at('2026:05:04 08:30:00')).toBeNull();
    expect(at('1989:12:31 23:59:59', '+00:00')).toBeNull();
    expect(at('2026:05:05 12:00:01', '+00:00')).toBeNull();
    expect(at('2026:05:05 11:59:59', '+00:00')).toBe('2026-05-05T11:59:59.000Z');
    expect(at('2026:02:31 10:00:00', '+00:00')).toBeNull();
    expect(at('2026:05:04 25:00:00', '+00:00')).toBeNull();
    expect(at('2026:05:04 10:00:00', '+15:00')).toBeNull();
    expect(at('0000:00:00 00:00:00', '+00:00')).toBeNull();
  });

  it('a position out of range, without a hemisphere, or at (0, 0) is no position; a bad accuracy or heading alone is dropped', () => {
    const place = (lat: unknown, lon: unknown, extra: object = {}) =>
      captureLocation({
        GPSLatitude: lat,
        GPSLatitudeRef: 'S',
        GPSLongitude: lon,
        GPSLongitudeRef: 'E',
        ...extra,
      });
    expect(place([33, 52, 4.8], [151, 12, 36])).toEqual({
      latitude: -33.868,
      longitude: 151.21,
      accuracy: null,
      heading: null,
    });
    expect(place([91, 0, 0], [10, 0, 0])).toBeNull();
    expect(place([10, 0, 0], [181, 0, 0])).toBeNull();
    expect(place([10, 61, 0], [10, 0, 0])).toBeNull();
    expect(place([0, 0, 0], [0, 0, 0])).toBeNull();
    expect(place(['x', 0, 0], [10, 0, 0])).toBeNull();
    expect(captureLocation({ GPSLatitude: [10, 0, 0], GPSLongitude: [10, 0, 0] })).toBeNull();
    expect(
      place([10, 0, 0], [10, 0, 0], { GPSHPositioningError: 4294967295, GPSImgDirection: -3 }),
    ).toMatchObject({
      accuracy: null,
      heading: null,
    });
    expect(place([10, 0, 0], [10, 0, 0], { GPSHPositioningError: 12.5, GPSImgDirection: 360 })).toMatchObject(
      {
        accuracy: 12.5,
        heading: 0,
      },
    );
  });
});

describe('renderVariants: three upright, metadata-free JPEGs (issue 44, delivery)', () => {
  it('a 12-megapixel phone JPEG with GPS: thumb 256, medium 1024, large 2048 on the long side, no metadata left at all', async () => {
    const original = await phoneJpeg(4_000, 3_000);
    expect((await exifr.gps(original))?.latitude).toBe(51.5);
    const variants = await variantsOf(original, await factsOf(original, 'image/jpeg'));
    expect(
      variants.map(({ name, media_type, width, height }) => ({ name, media_type, width, height })),
    ).toEqual([
      { name: 'thumb', media_type: 'image/jpeg', width: 256, height: 192 },
      { name: 'medium', media_type: 'image/jpeg', width: 1024, height: 768 },
      { name: 'large', media_type: 'image/jpeg', width: 2048, height: 1536 },
    ]);
    for (const variant of variants) {
      expect(await metadataLeft(variant)).toEqual(NO_METADATA);
      const decoded = await sharp(variant.bytes).metadata();
      expect([decoded.format, decoded.width, decoded.height, decoded.space]).toEqual([
        'jpeg',
        variant.width,
        variant.height,
        'srgb',
      ]);
    }
  });

  it('orientation is normalised: a sideways-stored portrait comes out portrait, with no orientation tag', async () => {
    // Stored 400 × 200, left half red and right half blue; orientation 6 means "rotate 90° clockwise to view".
    const halves = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#ff0000' } })
      .composite([
        {
          input: { create: { width: 200, height: 200, channels: 3, background: '#0000ff' } },
          left: 200,
          top: 0,
        },
      ])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const [thumb] = await variantsOf(halves, await factsOf(halves, 'image/jpeg'));
    if (!thumb) throw new Error('No thumb');
    expect([thumb.width, thumb.height]).toEqual([128, 256]);
    expect((await sharp(thumb.bytes).metadata()).orientation).toBeUndefined();
    // Upright, the stored left (red) is on top.
    const top = await regionStats(thumb.bytes, 0, 0, 128, 100);
    expect(top.channels[0]?.mean).toBeGreaterThan(200);
    expect(top.channels[2]?.mean).toBeLessThan(60);
  });

  it('an image smaller than a variant is never enlarged', async () => {
    const small = await phoneJpeg(600, 300);
    const variants = await variantsOf(small, await factsOf(small, 'image/jpeg'));
    expect(variants.map((v) => [v.name, v.width, v.height])).toEqual([
      ['thumb', 256, 128],
      ['medium', 600, 300],
      ['large', 600, 300],
    ]);
    expect(VARIANTS).toEqual({ thumb: 256, medium: 1024, large: 2048 });
  });

  it('a PNG with transparency becomes an opaque JPEG on white', async () => {
    const png = await sharp({
      create: { width: 40, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const [thumb] = await variantsOf(png, await factsOf(png, 'image/png'));
    const stats = await sharp(thumb?.bytes).stats();
    expect(stats.isOpaque).toBe(true);
    expect(stats.channels[0]?.mean).toBeGreaterThan(250);
  });

  it('a real HEIC is decoded by the wasm decoder into three metadata-free JPEGs', async () => {
    const heic = phoneHeic();
    expect(
      (await exifr.gps(heic).catch(() => null)) ?? (await readExif((await sharp(heic).metadata()).exif)),
    ).toMatchObject({
      GPSLatitudeRef: 'N',
    });
    const variants = await variantsOf(heic, await factsOf(heic, 'image/heic'));
    expect(variants.map((v) => [v.name, v.width, v.height])).toEqual([
      ['thumb', 256, 192],
      ['medium', 640, 480],
      ['large', 640, 480],
    ]);
    for (const variant of variants) expect(await metadataLeft(variant)).toEqual(NO_METADATA);
    // The fixture's red disc (centre 200, 200 of 640 × 480) is where it was: the pixels are the picture's.
    const disc = await regionStats(variants[1]?.bytes as Buffer, 180, 180, 40, 40);
    expect(disc.channels[0]?.mean).toBeGreaterThan(150);
    expect(disc.channels[1]?.mean).toBeLessThan(100);
  });

  it('a 12-megapixel HEIC coded as a grid of tiles (as phones write them) becomes 2048 / 1024 / 256 JPEGs, facts from its EXIF', async () => {
    const heic = readFileSync(resolve(import.meta.dirname, '../../fixtures/images/phone-12mp.heic'));
    const facts = await factsOf(heic, 'image/heic');
    expect(facts).toEqual({ media_type: 'image/heic', width: 4032, height: 3024, ...LONDON_FACTS });
    const variants = await variantsOf(heic, facts);
    expect(variants.map((v) => [v.name, v.width, v.height])).toEqual([
      ['thumb', 256, 192],
      ['medium', 1024, 768],
      ['large', 2048, 1536],
    ]);
    for (const variant of variants) expect(await metadataLeft(variant)).toEqual(NO_METADATA);
  });

  it('bad input: a HEIC the decoder cannot read is inspected (kept) but not rendered: { ok: false, reason }, no throw', async () => {
    const broken = undecodableHeic();
    const facts = await factsOf(broken, 'image/heic');
    expect([facts.media_type, facts.width, facts.height]).toEqual(['image/heic', 640, 480]);
    const rendering = await renderVariants(broken, facts);
    expect(rendering.ok).toBe(false);
    expect(rendering).toMatchObject({ reason: expect.stringMatching(/HEIC decoder/) });
  });

  it('a JPEG that breaks while rendering answers { ok: false }, never a throw', async () => {
    const jpeg = await phoneJpeg(320, 240);
    const facts = await factsOf(jpeg, 'image/jpeg');
    const rendering = await renderVariants(jpeg.subarray(0, 200), facts);
    expect(rendering.ok).toBe(false);
  });
});

describe('annotations: burnt into the variants only (issue 44, annotations)', () => {
  /** A 1,000 × 500 grey picture with a fine black-and-white checkerboard in its right half. */
  const testCard = () => {
    const size = { width: 500, height: 500 };
    const checks = Buffer.alloc(size.width * size.height * 3);
    for (let y = 0; y < size.height; y++)
      for (let x = 0; x < size.width; x++)
        checks.fill(
          ((x >> 2) + (y >> 2)) % 2 ? 255 : 0,
          (y * size.width + x) * 3,
          (y * size.width + x) * 3 + 3,
        );
    return sharp({ create: { width: 1000, height: 500, channels: 3, background: '#808080' } })
      .composite([{ input: checks, raw: { ...size, channels: 3 }, left: 500, top: 0 }])
      .png()
      .toBuffer();
  };

  it('a box and an arrow are drawn in their colour at their place, scaled to each variant', async () => {
    const card = await testCard();
    const annotations: Annotation[] = [
      { kind: 'box', x: 0.1, y: 0.2, width: 0.2, height: 0.4, colour: '#00ff00' },
      { kind: 'arrow', x: 0.05, y: 0.9, x2: 0.4, y2: 0.9, colour: '#0000ff' },
    ];
    const variants = await variantsOf(card, await factsOf(card, 'image/png'), annotations);
    for (const variant of variants) {
      const { width, height } = variant;
      // The box's left edge, a column at x = 0.1 from y = 0.3 to 0.5.
      const edge = await regionStats(
        variant.bytes,
        Math.floor(0.1 * width),
        Math.floor(0.3 * height),
        1,
        Math.floor(0.2 * height),
      );
      expect(edge.channels[1]?.mean).toBeGreaterThan(180);
      expect(edge.channels[0]?.mean).toBeLessThan(90);
      // The arrow's shaft, along y = 0.9 between x = 0.1 and 0.3.
      const shaft = await regionStats(
        variant.bytes,
        Math.floor(0.1 * width),
        Math.round(0.9 * height),
        Math.floor(0.2 * width),
        1,
      );
      expect(shaft.channels[2]?.mean).toBeGreaterThan(180);
    }
    // Without annotations the same places are the grey of the picture.
    const [plain] = await variantsOf(card, await factsOf(card, 'image/png'));
    const plainEdge = await regionStats(plain?.bytes as Buffer, 25, 38, 1, 25);
    expect(plainEdge.channels[1]?.mean).toBeLessThan(140);
  });

  it('a blur region hides what is under it in every variant (the checkerboard is gone), the rest untouched', async () => {
    const card = await testCard();
    const facts = await factsOf(card, 'image/png');
    const [plainThumb, plainMedium] = await variantsOf(card, facts);
    const [thumb, medium] = await variantsOf(card, facts, [
      { kind: 'blur', x: 0.5, y: 0, width: 0.25, height: 1 },
    ]);
    // At medium (1,000 × 500) the checks are 4 px: the blurred quarter has almost no contrast left.
    const hidden = await regionStats(medium?.bytes as Buffer, 520, 20, 200, 460);
    const shown = await regionStats(medium?.bytes as Buffer, 780, 20, 200, 460);
    const before = await regionStats(plainMedium?.bytes as Buffer, 520, 20, 200, 460);
    expect(before.channels[0]?.stdev).toBeGreaterThan(80);
    expect(hidden.channels[0]?.stdev).toBeLessThan(20);
    expect(shown.channels[0]?.stdev).toBeGreaterThan(80);
    expect(thumb?.bytes.equals(plainThumb?.bytes as Buffer)).toBe(false);
  });

  it('text is drawn, and nothing a client sends becomes markup (text escaped, colours only #hex or a name)', async () => {
    const card = await testCard();
    const facts = await factsOf(card, 'image/png');
    const hostile: Annotation[] = [
      {
        kind: 'text',
        x: 0.05,
        y: 0.05,
        text: 'Crack </text><image href="file:///etc/passwd"/> & "more"',
        colour: '#ff0000',
      },
      { kind: 'box', x: 0.1, y: 0.5, width: 0.1, height: 0.1, colour: 'red"/><image href="x' },
      { kind: 'arrow', x: Number.NaN, y: 0, x2: 1, y2: 1 },
      { kind: 'box', x: -5, y: 2, width: 9, height: 9 },
    ];
    const variants = await variantsOf(card, facts, hostile);
    expect(variants).toHaveLength(3);
    const [plain] = await variantsOf(card, facts);
    // The text's corner has red in it now.
    const corner = await regionStats(variants[0]?.bytes as Buffer, 10, 10, 60, 12);
    const plainCorner = await regionStats(plain?.bytes as Buffer, 10, 10, 60, 12);
    expect(corner.channels[0]?.max).toBeGreaterThan(plainCorner.channels[0]?.max ?? 0);
  });

  it('the original bytes are never touched by rendering', async () => {
    const original = await phoneJpeg(300, 200);
    const copy = Buffer.from(original);
    await variantsOf(original, await factsOf(original, 'image/jpeg'), [
      { kind: 'blur', x: 0, y: 0, width: 1, height: 1 },
    ]);
    expect(original.equals(copy)).toBe(true);
  });
});
