/**
 * Requests for location imports. A small file is posted inline (`csv`, within the 1 MiB body limit) and
 * processed at once. A larger one is declared (`upload: {size, content_type, checksum}`): the answer
 * carries a presigned PUT for exactly that size, type and SHA-256, and POST …/{id}/process runs the
 * import once uploaded, on the bytes it read only if they are the declared ones. The record keeps the
 * checksum of what was imported, and a processed import never reads its file again, so a later PUT
 * through the same URL changes nothing.
 */
import * as z from 'zod';
import { createJob } from '#functions/jobs/worker';
import type { Principal } from '#shared/auth/principal';
import { config } from '#shared/config';
import { presignUpload, putObject, readObjectText } from '#shared/data/files';
import { uuidv7 } from '#shared/data/ids';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { byPrincipal, changedRecord, newRecord } from '#shared/engine/record-writes';
import { readInScope } from '#shared/engine/single';
import { checksum } from '#shared/engine/uploads';
import { line } from '#shared/jsonapi/attribute-types';
import { ConflictError } from '#shared/jsonapi/errors';
import { importTemplates, locationImports } from './definitions';
import { IMPORT_JOB } from './job-kinds';
import { importLocations } from './location-imports/writes';
import type { LocationField } from './rules/location-rows';

/** What an import's routes need (create and process), and so what its job's chunks need of its creator. */
const IMPORT_PERMISSION = 'places:manage';

/** Uploaded import files: up to 50 MiB (about 1,000,000 short rows). */
export const UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

/**
 * A file up to this size is imported within its request (about 1,400 short rows: about 2 s on DynamoDB
 * Local, far less in AWS, well inside the 10 s the API's functions have); a larger one becomes a job,
 * and the request answers 202 with it.
 */
export const INLINE_MAX_BYTES = 64 * 1024;

/** An import request's answer: the import done, or the job that will do it. */
export type ImportAnswer = { record: StoredResource; job?: never } | { job: StoredResource; record?: never };

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

/**
 * The job that imports `record`'s file (already in storage), and the import record's new version in the
 * same transaction: `processing`, with the column mapping the job will use, naming its job (each record
 * names the other from the start).
 */
const importJob = async (
  scope: Scope,
  record: StoredResource,
  mapping: Partial<Record<LocationField, string>>,
  author: Principal,
  create: boolean,
): Promise<ImportAnswer> => {
  const jobId = uuidv7();
  const named = { ...record, rels: { ...record.rels, job: jobId } };
  // Its status through `changedRecord`, so its status entry and count move with it (a create is made so).
  const processing = {
    ...(create ? named : changedRecord(locationImports, named, { attributes: { status: 'processing' } })),
    mapping,
  };
  const job = await createJob(scope, record.org_id, IMPORT_JOB.name, author, {
    permission: IMPORT_PERMISSION,
    id: jobId,
    rels: { location_import: record.id },
    ops: [create ? { create: processing } : { replace: processing, was: record }],
  });
  return { job };
};

export const startImport = async (
  scope: Scope,
  orgId: string,
  { data }: z.infer<typeof createImportDocument>,
  author: Principal,
): Promise<ImportAnswer> => {
  const templateId = data.relationships?.import_template.data.id;
  const mapping = await mappingOf(scope, templateId);
  const fileName = data.attributes.file_name ?? null;
  if (data.attributes.csv !== undefined) {
    const csv = data.attributes.csv;
    const bytes = Buffer.byteLength(csv);
    const source = { kind: 'inline', file_name: fileName, bytes };
    if (bytes <= INLINE_MAX_BYTES)
      return {
        record: await importLocations(
          scope,
          orgId,
          { csv, source, mapping, ...(templateId && { templateId }) },
          author,
        ),
      };
    const record = newRecord(locationImports, orgId, {
      attributes: { status: 'processing', source },
      rels: { ...byPrincipal('author', author), import_template: templateId ?? null },
    });
    const object = uploadKey(record);
    await putObject(config.EXPORTS_BUCKET, object, 'text/csv', csv);
    const stored = { ...record, attributes: { ...record.attributes, source: { ...source, object } } };
    return importJob(scope, stored, mapping, author, true);
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
  return { record: withUpload };
};

/** Runs an uploaded import: 409 unless it is awaiting its file and the file read is the declared one. */
export const processUploadedImport = async (
  scope: Scope,
  record: StoredResource,
  author: Principal,
): Promise<ImportAnswer> => {
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
  const source = { ...(record.attributes.source as object), object: uploadKey(record) };
  const mapping = await mappingOf(scope, templateId);
  const uploaded = { ...record, meta, attributes: { ...record.attributes, source } };
  if (file.bytes > INLINE_MAX_BYTES) return importJob(scope, uploaded, mapping, author, false);
  return {
    record: await importLocations(
      scope,
      record.org_id,
      { csv: file.text, source, mapping, ...(templateId && { templateId }) },
      author,
      new Date(),
      uploaded,
    ),
  };
};
