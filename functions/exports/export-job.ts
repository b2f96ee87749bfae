/**
 * An export too large for its request, as a job. The file is an S3 multipart upload: pages are read from
 * DynamoDB (each with the key the next starts from) and written as text until a part's worth
 * (`EXPORT_PART_KIB`) is waiting; that part is uploaded, then a checkpoint saves the upload's parts, the
 * key to read on from and what has been written (rows, the CSV's columns). A worker that dies mid-part
 * leaves a part the next worker writes again under the same number, replacing it: no row is lost or
 * written twice. The last part closes the file; its size and SHA-256 are read back from S3.
 *
 * A cost roll-up export is one chunk: its totals need the whole subtree (one Query on the tree index),
 * so it is computed in one go, in the worker's 15 minutes rather than a request's seconds.
 */

import { config } from '#shared/config';
import { finishParts, type PartsUpload, startParts, writePart } from '#shared/data/files';
import { getInScope, type PageKey } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { WriteOp } from '#shared/data/transaction';
import { type JobError, JobFailed, type JobKind } from '#shared/engine/job-kinds';
import { changedRecord } from '#shared/engine/record-writes';
import { ApiError } from '#shared/jsonapi/errors';
import { exportsDefinition } from './definitions';
import { closing, contentTypeOf, type Format, opening, pagesOf, pageText, type Written } from './file';
import { parseExport } from './request';

interface Checkpoint {
  upload?: PartsUpload;
  /** Where the next page starts; none once every page has been written. */
  next?: PageKey;
  written?: Written;
}

const exportOf = async (scope: Scope, job: StoredResource) => {
  const record = await getInScope(scope, exportsDefinition.keyOf, String(job.rels.export));
  if (!record) throw new JobFailed([{ detail: 'The export record is gone.' }]);
  return record;
};

const failedExport = (record: StoredResource, errors: JobError[]): WriteOp[] => [
  {
    replace: changedRecord(exportsDefinition, record, {
      attributes: { status: 'failed', errors: errors.map((e) => e.detail) },
    }),
    was: record,
  },
];

/** The request as it was accepted, from the record that keeps it. */
const requestOf = (record: StoredResource) => {
  const { subject_type, format, filters, sort } = record.attributes;
  return parseExport({
    data: { type: 'exports', attributes: { subject_type, format, filters, ...(sort ? { sort } : {}) } },
  });
};

/** The `export` job kind's work (`job-kinds.ts`). */
export const exportJob: JobKind = {
  failed: async (scope, job, errors) => failedExport(await exportOf(scope, job), errors),
  run: async ({ scope, job, checkpoint, save, timeUp }) => {
    const record = await exportOf(scope, job);
    const format = record.attributes.format as Format;
    const bucket = config.EXPORTS_BUCKET;
    const saved = checkpoint as Checkpoint;
    let upload = saved.upload ?? (await startParts(bucket, String(record.object_key), contentTypeOf(format)));
    let written: Written = saved.written ?? { rows: 0, columns: null };
    let text = saved.upload ? '' : opening(format);
    if (!saved.upload || saved.next) {
      const request = requestOf(record);
      let waiting = Buffer.byteLength(text);
      try {
        for await (const { items, next } of pagesOf(
          scope,
          record.org_id,
          request,
          String(record.base_url),
          saved.next,
        )) {
          const page = pageText(format, items, written);
          text += page.text;
          written = page.written;
          waiting += Buffer.byteLength(page.text);
          if (waiting < config.EXPORT_PART_KIB * 1024) continue;
          upload = await writePart(bucket, upload, Buffer.from(text));
          text = '';
          waiting = 0;
          await save({ checkpoint: { upload, next, written }, processed: written.rows, total: null });
          if (next && timeUp()) return 'yield';
        }
      } catch (error) {
        // A roll-up whose node is gone, or whose lines now mix currencies: the export fails, saying why.
        if (!(error instanceof ApiError)) throw error;
        const errors = [{ detail: error.detail ?? error.message }];
        throw new JobFailed(errors, failedExport(record, errors));
      }
    }
    text += closing(format, written);
    const last = text.length > 0 || upload.parts.length === 0 ? Buffer.from(text) : null;
    const { bytes, sha256 } = await finishParts(bucket, upload, last);
    return {
      processed: written.rows,
      total: written.rows,
      rels: { export: record.id },
      ops: [
        {
          replace: changedRecord(exportsDefinition, record, {
            attributes: { status: 'complete', row_count: written.rows, size: bytes, checksum: sha256 },
          }),
          was: record,
        },
      ],
    };
  },
};
