/**
 * Images: photo evidence (issue 44). A client declares the file (name, media type, size, SHA-256) and gets a
 * presigned upload that signs all three; `complete` accepts the upload as a copy no upload URL names (the
 * original, pinned: nothing can change it afterwards) and moves the image to `processing`; the image worker
 * (`worker.ts`, started by the `image.uploaded` consumer) reads the facts, writes the fixed variants without
 * any metadata and moves it to `ready` or `rejected`. Originals and variants live in the images bucket
 * (versioned; originals never expire, variants are regenerable); uploads under `uploads/` expire.
 *
 * Coordinates are evidence and personal data at once: every serialisation of an image (answers, events,
 * webhooks, exports) shows `location` null while `location_visibility` is `restricted` (`servedAttributes`);
 * only the image routes give it back, to callers holding `images:view-original` (`visibility.ts`).
 */
import { deletedPattern } from '#shared/data/trees';
import { defineLifecycle } from '#shared/engine/lifecycle';
import { polymorphicFilters } from '#shared/engine/relationship-targets';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';
import { hiddenLocation } from './rules/visibility';

/** The move's work and writes load when it runs: every function reads this declaration, few complete an image. */
const completion = () => import('./completion');

export const IMAGE_STATES = ['pending_upload', 'processing', 'ready', 'rejected'] as const;
export const IMAGE_MEDIA_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'image/heif',
] as const;
export const VARIANT_NAMES = ['thumb', 'medium', 'large'] as const;
export const REJECTION_REASONS = ['type_mismatch', 'corrupt', 'too_many_pixels', 'unsupported'] as const;
/** At most 25 MB (issue 44): a phone's photo is 2–8 MB, a 50-megapixel one about 20. */
export const MAX_IMAGE_BYTES = 25 * 1024 * 1024;

/**
 * What an image may be evidence of. Actions, submissions and permits to work join when they exist (their
 * declarations must be loaded where images are written: the relationship names them).
 */
export const IMAGE_SUBJECT_TYPES = [
  'schemes',
  'work-orders',
  'operations',
  'locations',
  'equipment-items',
  'vehicles',
  'documents',
] as const;
const subject = { types: IMAGE_SUBJECT_TYPES };

export const images = defineResource({
  type: 'images',
  tag: 'Images',
  names: { one: 'Image', many: 'Images' },
  collectionPath: '/v3/orgs/{org_id}/images',
  itemPath: '/v3/images/{image_id}',
  permission: 'images',
  endpoints: {
    list: 'functions/images/list.ts',
    get: 'functions/images/get.ts',
    create: {
      handler: 'functions/images/create.ts',
      access: { table: 'write', buckets: { images: 'write' } },
    },
    update: 'functions/images/update.ts',
    delete: 'functions/images/delete.ts',
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    const size = z.strictObject({
      width: z.number().int(),
      height: z.number().int(),
      size: z.number().int().describe('Bytes.'),
    });
    return {
      filename: z.string(),
      media_type: z
        .enum(IMAGE_MEDIA_TYPES)
        .describe('Declared at upload; once processed, the type sniffed from the bytes.'),
      size: z.number().int().describe('Bytes of the original.'),
      sha256: z.string().describe('SHA-256 of the original, base64: the original is provable by it.'),
      width: z.number().int().nullable().describe('Pixels, after EXIF orientation; null until processed.'),
      height: z.number().int().nullable(),
      captured_at: instant()
        .nullable()
        .describe(
          'EXIF DateTimeOriginal with its offset, in UTC; null when absent or absurd (before 1990, or more than a day after received_at).',
        ),
      received_at: instant()
        .nullable()
        .describe('Server time the original was accepted (`complete`), independent of the device clock.'),
      location: z
        .strictObject({
          latitude: z.number(),
          longitude: z.number(),
          accuracy: z.number().nullable().describe('Metres.'),
          heading: z.number().nullable().describe('Degrees from true north.'),
          source: z.enum(['exif', 'device', 'none']),
        })
        .nullable()
        .describe(
          'Where it was taken. Null when unknown, and null to callers without images:view-original while location_visibility is restricted (and always in events, webhooks and exports then).',
        ),
      location_visibility: z
        .enum(['organisation', 'restricted'])
        .describe('restricted (the default): only holders of images:view-original see the coordinates.'),
      device: z.strictObject({ make: z.string().nullable(), model: z.string().nullable() }).nullable(),
      caption: z.string().nullable(),
      status: z.enum(IMAGE_STATES),
      rejection: z
        .strictObject({ reason: z.enum(REJECTION_REASONS), detail: z.string() })
        .nullable()
        .describe('Why the image was rejected (its original is kept); null otherwise.'),
      variants_status: z
        .enum(['none', 'pending', 'ready'])
        .describe(
          'none until processed; pending when they could not be made yet (a HEIC the decoder cannot read: the original is kept, the image ready with its facts) or are being made again (annotations changed); ready when GET …/variants/{variant} serves them.',
        ),
      variants_reason: z.string().nullable().describe('Why the variants are pending, when they are.'),
      variants: z
        .strictObject({ thumb: size, medium: size, large: size })
        .nullable()
        .describe('The three fixed variants (256, 1024, 2048 px on the long side), JPEG without metadata.'),
    };
  },
  servedAttributes: hiddenLocation,
  // `image.annotated`: the vector layer replaced, the variants to be drawn again (`annotations.ts`).
  events: ['annotated'],
  relationships: {
    subject,
    uploaded_by: { type: 'users' },
    uploaded_by_service_account: { type: 'service-accounts' },
    pair_of: { type: 'images' },
  },
  keys: {
    'filter-subject': {
      index: 'gsi2',
      pk: 'IMAGES#{org_id}#{rels.subject}',
      sk: '{id}',
      about: 'an image under its subject (`<type>:<id>`), in creation order: `filter[subject]`',
    },
    'filter-uploaded-by': {
      index: 'lsi2',
      pk: 'ORG#{org_id}#images',
      sk: 'uploaded_by#{rels.uploaded_by}#{id}',
      about: 'an image under the user who uploaded it, in creation order: `filter[uploaded_by]`',
    },
    // A deleted image waits out its legal hold there (`hold_until`), its original kept: `delete.ts`.
    deleted: deletedPattern('images'),
  },
  geoIndex: { path: 'attributes.location' },
  collection: {
    // Photos grow with every inspection: every filter is indexed, none reads the organisation's partition.
    filters: {
      subject: { ...polymorphicFilters('subject', subject).subject, index: 'filter-subject' },
      uploaded_by: { kind: 'eq', path: 'rels.uploaded_by', index: 'filter-uploaded-by' },
      captured_at: { kind: 'time', path: 'attributes.captured_at', index: 'sort-captured_at' },
      location: {
        kind: 'box',
        path: 'attributes.location',
        index: 'geo',
        description:
          'A bounding box; only images whose coordinates the caller may see (location_visibility organisation, or every image with images:view-original).',
      },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    sorts: { captured_at: { path: 'attributes.captured_at', index: 'lsi1' } },
    defaultSort: '-created_at',
    includes: ['subject', 'uploaded_by', 'uploaded_by_service_account', 'pair_of'],
  },
  lifecycle: defineLifecycle({
    attribute: 'status',
    states: IMAGE_STATES,
    noun: 'image',
    transitions: {
      complete: {
        from: ['pending_upload'],
        to: 'processing',
        event: 'uploaded',
        access: { table: 'write', buckets: { images: 'write' } },
        changes: (_image, { now }) => ({ attributes: { received_at: now.toISOString() } }),
        work: async (scope, image) => (await completion()).acceptOriginal(scope, image),
      },
      ready: { from: ['processing'], to: 'ready', event: 'ready', by: 'worker' },
      reject: { from: ['processing'], to: 'rejected', event: 'rejected', by: 'worker' },
    },
  }),
});
