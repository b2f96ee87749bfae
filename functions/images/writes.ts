/**
 * Writing images: the create that records a declared file and hands out its presigned upload, the PATCH of
 * what a person says about it (caption, subject, pair, who sees the coordinates), and the soft delete. What
 * the file is (size, media type, SHA-256) is never changed after create: `complete` proves it, the worker
 * reads the facts from the bytes.
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { config } from '#shared/config';
import { presignUpload } from '#shared/data/files';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { deletedKey } from '#shared/data/trees';
import {
  byPrincipal,
  changedRecord,
  commitChecked,
  existenceChecks,
  newRecord,
  relationshipSchema,
  storedRelationships,
} from '#shared/engine/record-writes';
import { checksum } from '#shared/engine/uploads';
import { line } from '#shared/jsonapi/attribute-types';
import { ValidationError } from '#shared/jsonapi/errors';
import { assertSameId, parseDocument } from '#shared/jsonapi/request-document';
import { declaredImage, imageUploadKey } from './completion';
import { IMAGE_MEDIA_TYPES, images, MAX_IMAGE_BYTES } from './definitions';

const declaredPoint = () =>
  z.strictObject({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    accuracy: z.number().min(0).max(100_000).nullable().optional(),
    heading: z.number().min(0).lt(360).nullable().optional(),
  });

const said = () => ({
  caption: line(2000).nullable().optional(),
  location_visibility: z.enum(['organisation', 'restricted']).optional(),
});

const related = () => ({
  subject: relationshipSchema(images, 'subject'),
  pair_of: relationshipSchema(images, 'pair_of'),
});

export const createImageDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('images'),
      attributes: z.strictObject({
        filename: line(255).min(1),
        media_type: z.enum(IMAGE_MEDIA_TYPES, {
          error: `media_type must be one of ${IMAGE_MEDIA_TYPES.join(', ')}`,
        }),
        size: z
          .number()
          .int()
          .min(1)
          .max(MAX_IMAGE_BYTES, { error: `size must be at most ${MAX_IMAGE_BYTES} bytes (25 MB)` }),
        sha256: checksum,
        /** Where the uploading app was (kept as `source: device` unless the photo's EXIF GPS says). */
        location: declaredPoint().nullable().optional(),
        ...said(),
      }),
      relationships: z.strictObject(related()).partial().optional(),
    }),
  }),
);

/** The image with its presigned upload in `meta.upload` (never stored). */
const withUpload = async (image: StoredResource) => ({
  ...image,
  meta: {
    ...image.meta,
    upload: await presignUpload(config.IMAGES_BUCKET, imageUploadKey(image), declaredImage(image)),
  },
});

/** An image pending upload; answers it with `meta.upload`, the presigned PUT of exactly the declared file. */
export const createImage = async (
  scope: Scope,
  orgId: string,
  body: unknown,
  principal: Principal | null,
  now = new Date(),
) => {
  const { data } = parseDocument(createImageDocument, body);
  const { location, caption, location_visibility, ...file } = data.attributes;
  const rels = storedRelationships(data.relationships as never, images);
  const image = newRecord(
    images,
    orgId,
    {
      attributes: {
        ...file,
        width: null,
        height: null,
        captured_at: null,
        received_at: null,
        location: null,
        location_visibility: location_visibility ?? 'restricted',
        device: null,
        caption: caption ?? null,
        status: 'pending_upload',
        rejection: null,
        variants_status: 'none',
        variants_reason: null,
        variants: null,
      },
      rels: { ...rels, ...byPrincipal('uploaded_by', principal, 'uploaded_by') },
    },
    now,
  );
  // The app's declared position waits for the worker: EXIF GPS wins if the bytes carry any (rules/location.ts).
  const stored = location
    ? { ...image, declared_location: { accuracy: null, heading: null, ...location } }
    : image;
  await commitChecked(scope, [{ create: stored }], existenceChecks(images, orgId, rels));
  return withUpload(stored);
};

export const updateImageDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('images'),
      id: z.uuid(),
      attributes: z.strictObject(said()).optional(),
      relationships: z.strictObject(related()).partial().optional(),
    }),
  }),
);

/** Caption, subject, pair and who sees the coordinates; the file and its facts never change. */
export const updateImage = async (scope: Scope, image: StoredResource, body: unknown, now = new Date()) => {
  const { data } = parseDocument(updateImageDocument, body);
  assertSameId(data.id, image.id);
  const rels = storedRelationships(data.relationships as never, images);
  if (rels.pair_of === image.id)
    throw new ValidationError({
      detail: 'An image cannot be the pair of itself.',
      source: { pointer: '/data/relationships/pair_of/data/id' },
    });
  const next = changedRecord(images, image, { attributes: data.attributes ?? {}, rels }, now);
  await commitChecked(scope, [{ replace: next, was: image }], existenceChecks(images, image.org_id, rels));
  return next;
};

/**
 * Soft delete: the image leaves its collection and every index (`image.deleted`), and waits under its
 * organisation's deleted key with `hold_until`, its original and variants kept in the bucket for the legal hold
 * (`IMAGE_LEGAL_HOLD_DAYS`); purging after it is not built yet.
 */
export const deleteImage = async (scope: Scope, image: StoredResource, now = new Date()) => {
  const { gsi1pk: _g1, gsi1sk: _s1, gsi2pk: _g2, gsi2sk: _s2, lsi1: _l1, lsi2: _l2, ...rest } = image;
  const holdUntil = new Date(now.getTime() + config.IMAGE_LEGAL_HOLD_DAYS * 86_400_000).toISOString();
  const kept = {
    ...rest,
    ...deletedKey(image.org_id, images.type, image.id),
    meta: { ...image.meta, deleted_at: now.toISOString() },
    hold_until: holdUntil,
  };
  await commitChecked(scope, [{ delete: image }, { put: kept }], []);
};
