/**
 * The backup flow: someone asks a device for a backup (a request naming the device); the device,
 * signed in as a user or service account, creates the backup record (size and SHA-256 declared), PUTs
 * the file with the presigned URL (S3 refuses another size, type or checksum) to
 * `uploads/<org>/<backup>` and completes it: the service copies the upload to
 * `<org>/<backup>/<copy id>` and checks the copy's size and checksum; only that copy is served. Keys hold
 * ids only: the device's name (a name, never a path) appears only in the download's file name. Records
 * are kept 30 whole days: they expire at the end of the 30th day after the day they were made (UTC; see
 * data/retention.ts; DynamoDB TTL, and treated as gone on read before TTL deletes them); files 30 days
 * after the copy (bucket lifecycle, which S3 rounds to the next midnight UTC), never before their record,
 * so a backup that can be seen can be downloaded.
 */
import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { config } from '#shared/config';
import { presignUpload } from '#shared/data/files';
import { countedDay, expiryOf } from '#shared/data/retention';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { byPrincipal, changedRecord, createRecord, newRecord } from '#shared/engine/record-writes';
import { readInScope } from '#shared/engine/single';
import { checksum, declaredFile, mediaType } from '#shared/engine/uploads';
import { ConflictError, NotFoundError } from '#shared/jsonapi/errors';
import { identifier, parseDocument } from '#shared/jsonapi/request-document';
import { uploadKey } from './completion';
import { deviceBackupRequests, deviceBackups, keptBackups, RETENTION_DAYS } from './definitions';

const MAX_BYTES = 5 * 1024 ** 3;

/**
 * A device's name: letters and digits, with spaces, dots, underscores and hyphens between them. A name,
 * never a path: no slashes, no leading or trailing dot, no control characters.
 */
const device = z.lazy(() =>
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(
      /^[\p{L}\p{N}](?:[\p{L}\p{N} ._-]*[\p{L}\p{N}])?$/u,
      'device must be a name of letters and digits, with spaces, dots, underscores or hyphens between them (such as tablet-07)',
    ),
);
const user = z.lazy(() => z.strictObject({ data: identifier('users') }).optional());

export const createRequestDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('device-backup-requests'),
      attributes: z.strictObject({ device, note: z.string().max(2000).optional() }),
      relationships: z.strictObject({ user }).optional(),
    }),
  }),
);

export const createRequest = async (
  scope: Scope,
  orgId: string,
  body: unknown,
  principal?: Principal | null,
) => {
  const { data } = parseDocument(createRequestDocument, body);
  const userId = data.relationships?.user?.data.id ?? null;
  const record = newRecord(deviceBackupRequests, orgId, {
    attributes: { ...data.attributes, status: 'open' },
    rels: { user: userId, backup: null, ...byPrincipal('requested_by', principal) },
  });
  return createRecord(scope, deviceBackupRequests, record, [], undefined, userId ? { user: userId } : {});
};

export const createBackupDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('device-backups'),
      attributes: z.strictObject({
        device,
        size: z.number().int().min(1).max(MAX_BYTES),
        checksum,
        content_type: mediaType.optional(),
      }),
      relationships: z
        .strictObject({
          user,
          request: z.strictObject({ data: identifier('device-backup-requests') }).optional(),
        })
        .optional(),
    }),
  }),
);

/** The device's backup record (status uploading) and its presigned PUT in `meta.upload`. */
export const createBackup = async (
  scope: Scope,
  orgId: string,
  body: unknown,
  principal?: Principal | null,
  now = new Date(),
) => {
  const { data } = parseDocument(createBackupDocument, body);
  const requestId = data.relationships?.request?.data.id;
  const request = requestId
    ? await readInScope(scope, deviceBackupRequests, requestId).catch(() => null)
    : null;
  if (requestId && (!request || request.org_id !== orgId)) {
    throw new NotFoundError('No such backup request in this organisation.');
  }
  if (
    request &&
    (request.attributes.status !== 'open' || request.attributes.device !== data.attributes.device)
  ) {
    throw new ConflictError('The request is not open for this device.', {
      pointer: '/data/relationships/request',
    });
  }
  const userId =
    data.relationships?.user?.data.id ??
    (request?.rels.user as string | null) ??
    (principal?.kind === 'user' ? principal.id : null);
  const record = newRecord(
    deviceBackups,
    orgId,
    {
      attributes: {
        device: data.attributes.device,
        size: data.attributes.size,
        checksum: data.attributes.checksum,
        content_type: data.attributes.content_type ?? 'application/octet-stream',
        status: 'uploading',
        completed_at: null,
      },
      rels: {
        user: userId,
        request: request?.id ?? null,
        requested_by_user: (request?.rels.requested_by_user as string | null) ?? null,
        requested_by_service_account: (request?.rels.requested_by_service_account as string | null) ?? null,
        ...byPrincipal('uploaded_by', principal),
      },
    },
    now,
  );
  const expiresAt = expiryOf(RETENTION_DAYS, now);
  const stored: StoredResource = {
    ...record,
    meta: { ...record.meta, expires_at: new Date(expiresAt * 1000).toISOString() },
    expires_at: expiresAt,
  };
  const fulfil: WriteOp[] = request
    ? [
        {
          replace: changedRecord(
            deviceBackupRequests,
            request,
            { attributes: { status: 'fulfilled' }, rels: { backup: record.id } },
            now,
          ),
          was: request,
        },
      ]
    : [];
  await createRecord(
    scope,
    deviceBackups,
    stored,
    [...fulfil, countedDay(keptBackups(orgId), now)],
    undefined,
    userId && data.relationships?.user ? { user: userId } : {},
  );
  const upload = await presignUpload(
    config.DEVICE_BACKUPS_BUCKET,
    uploadKey(stored),
    declaredFile(stored.attributes),
    3600,
  );
  return { ...stored, meta: { ...stored.meta, upload } };
};
