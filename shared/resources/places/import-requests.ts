/**
 * Requests for location imports. A small file is posted inline (`csv`, within the 1 MiB body limit) and
 * processed at once. A larger one is declared (`upload: {size, content_type, checksum}`): the answer
 * carries a presigned PUT for exactly that size, type and SHA-256, and POST …/{id}/process runs the
 * import once uploaded, on the bytes it read only if they are the declared ones. The record keeps the
 * checksum of what was imported, and a processed import never reads its file again, so a later PUT
 * through the same URL changes nothing.
 */
import * as z from 'zod';
import type { Principal } from '../../auth/principal';
import { config } from '../../config';
import { presignUpload, readObjectText } from '../../data/files';
import type { Scope } from '../../data/scope';
import type { StoredResource } from '../../data/stored-resource';
import { commit } from '../../data/transaction';
import type { LocationField } from '../../domain/places/location-rows';
import { line } from '../../jsonapi/attribute-types';
import { ConflictError } from '../../jsonapi/errors';
import { newRecord } from '../record-writes';
import { readInScope } from '../single';
import { checksum } from '../uploads';
import { importTemplates, locationImports } from './definitions';
import { importLocations } from './location-imports';

/** Uploaded import files: up to 50 MiB (about 500,000 rows). */
export const UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

export const createImportDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('location-imports'),
      attributes: z
        .strictObject({
          csv: z.string().min(1).optional(),
          upload: z
            .strictObject({
              size: z.number().int().min(1).max(UPLOAD_MAX_BYTES),
              content_type: z.literal('text/csv'),
              checksum,
            })
            .optional(),
          file_name: line(200).optional(),
        })
        .refine(
          (a) => (a.csv === undefined) !== (a.upload === undefined),
          'Send either csv (inline) or upload (size, content_type and checksum).',
        ),
      relationships: z
        .strictObject({
          import_template: z.strictObject({
            data: z.strictObject({ type: z.literal('import-templates'), id: z.uuid() }),
          }),
        })
        .optional(),
    }),
  }),
);

const uploadKey = (record: StoredResource) => `location-imports/${record.org_id}/${record.id}.csv`;

const mappingOf = async (scope: Scope, templateId: string | null | undefined) => {
  const template = templateId ? await readInScope(scope, importTemplates, templateId) : null;
  return (template?.attributes.columns as Partial<Record<LocationField, string>>) ?? {};
};

export const startImport = async (
  scope: Scope,
  orgId: string,
  { data }: z.infer<typeof createImportDocument>,
  author: Principal | null,
): Promise<StoredResource> => {
  const templateId = data.relationships?.import_template.data.id;
  const mapping = await mappingOf(scope, templateId);
  const fileName = data.attributes.file_name ?? null;
  if (data.attributes.csv !== undefined) {
    const csv = data.attributes.csv;
    const source = { kind: 'inline', file_name: fileName, bytes: Buffer.byteLength(csv) };
    return importLocations(scope, orgId, { csv, source, mapping, ...(templateId && { templateId }) }, author);
  }
  const upload = data.attributes.upload ?? { size: 0, content_type: 'text/csv', checksum: '' };
  const record = newRecord(locationImports, orgId, {
    attributes: {
      status: 'awaiting_upload',
      source: { kind: 'upload', file_name: fileName, bytes: upload.size, checksum: upload.checksum },
    },
    rels: {
      author: author?.kind === 'user' ? author.id : null,
      author_service_account: author?.kind === 'service-account' ? author.id : null,
      import_template: templateId ?? null,
    },
  });
  const presigned = await presignUpload(config.EXPORTS_BUCKET, uploadKey(record), {
    contentType: upload.content_type,
    bytes: upload.size,
    sha256: upload.checksum,
  });
  const withUpload = { ...record, meta: { ...record.meta, upload: presigned } };
  await commit(scope, [{ create: withUpload }]);
  return withUpload;
};

/** Runs an uploaded import: 409 unless it is awaiting its file and the file read is the declared one. */
export const processUploadedImport = async (
  scope: Scope,
  record: StoredResource,
  author: Principal | null,
) => {
  if (record.attributes.status !== 'awaiting_upload')
    throw new ConflictError('This import has already been processed.');
  const file = await readObjectText(config.EXPORTS_BUCKET, uploadKey(record));
  if (file === null)
    throw new ConflictError('The file has not been uploaded yet: PUT it to meta.upload.url first.');
  const declared = record.attributes.source as { bytes?: number; checksum?: string };
  if (file.bytes !== declared.bytes || file.sha256 !== declared.checksum) {
    throw new ConflictError(
      `The uploaded file (${file.bytes} bytes, SHA-256 ${file.sha256}) is not what was declared (${declared.bytes} bytes, SHA-256 ${declared.checksum}): PUT the declared file to meta.upload.url again.`,
    );
  }
  const templateId =
    typeof record.rels.import_template === 'string' ? record.rels.import_template : undefined;
  const { upload: _spent, ...meta } = record.meta;
  return importLocations(
    scope,
    record.org_id,
    {
      csv: file.text,
      source: { ...(record.attributes.source as object), object: uploadKey(record) },
      mapping: await mappingOf(scope, templateId),
      ...(templateId && { templateId }),
    },
    author,
    new Date(),
    { ...record, meta },
  );
};
