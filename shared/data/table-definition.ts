/**
 * The single table, described once. The CDK stack builds its `Table` from this and the local stack
 * and tests build their `CreateTable` call from it, so the two cannot drift.
 *
 * Keys (see shared/data/README.md for the access patterns):
 * - `pk`/`sk`: every tenant item lives in partition `ORG#<org_id>#<type>` with `sk` = its id;
 *   global lookups (client ids, principals) use their own `<KIND>#<id>` partitions.
 * - `lsi1`/`lsi2`: alternative sort orders inside a collection partition (sparse).
 * - `gsi1pk`/`gsi1sk`: reverse look-ups (sparse), e.g. the keys of a service account.
 * - `gsi2pk`/`gsi2sk`: a second indexed filter's entries (sparse), where a type's `gsi1` holds another.
 * - `expires_at`: TTL in epoch seconds (sessions, device backups, idempotency records, events).
 * - The stream carries each item as it became: event items (`EVENTS#…`) reach their consumers through it.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expires_at',
  streamView: 'NEW_IMAGE',
  localIndexes: [
    { name: 'lsi1', sortKey: 'lsi1' },
    { name: 'lsi2', sortKey: 'lsi2' },
  ],
  globalIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
} as const;

export type LocalIndexName = (typeof tableDefinition.localIndexes)[number]['name'];

/**
 * The buckets; logical names, the physical names come from configuration. Documents do not expire.
 * Clients upload to `uploads/…` and completion copies what it accepts elsewhere, so an upload is spent
 * once completed (or abandoned): `uploadsExpirationDays` removes it, even from the documents bucket.
 */
export const bucketDefinitions = {
  deviceBackups: { expirationDays: 30, uploadsExpirationDays: 7, noncurrentVersionDays: null },
  exports: { expirationDays: 30, uploadsExpirationDays: null, noncurrentVersionDays: null },
  // Versioned: a file overwritten or deleted (by a recursive folder delete, or by mistake) can be restored
  // for 90 days, then is gone for good (docs/deploying.md: data safety).
  documents: { expirationDays: null, uploadsExpirationDays: 7, noncurrentVersionDays: 90 },
  // Images (issue 44): originals are evidence, versioned and never expiring (`IMAGE_ORIGINALS_PREFIX`; a
  // deleted one, once past its legal hold, stays restorable as a noncurrent version for 30 days);
  // variants are regenerable from them (`IMAGE_VARIANTS_PREFIX`), so a replaced one goes after a day.
  images: {
    expirationDays: null,
    uploadsExpirationDays: 7,
    noncurrentVersionDays: 30,
    regenerable: { prefix: 'variants/', noncurrentVersionDays: 1 },
  },
} as const;

/** Where an image's accepted original is kept in the images bucket: `originals/<org_id>/<image_id>`. */
export const IMAGE_ORIGINALS_PREFIX = 'originals/';
/** Where its variants are written: `variants/<org_id>/<image_id>/…` (regenerable from the original). */
export const IMAGE_VARIANTS_PREFIX = bucketDefinitions.images.regenerable.prefix;

/** The key prefix of client uploads in a bucket (see `uploadsExpirationDays`). */
export const UPLOADS_PREFIX = 'uploads/';
