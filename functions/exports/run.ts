/**
 * Requesting an export. `subject_type` names a collection and decides authorisation: the caller needs that
 * collection's own list permission in the organisation (checked by the handler, which passes the scope
 * it allows), and the file holds exactly what that list would show them, with the same filters and
 * sort. Up to `EXPORT_INLINE_ROWS` rows (10,000: about 1.3 s locally), the file is written within the request (201); a larger collection,
 * and every cost roll-up (whose totals need the whole subtree), is written by a job (202,
 * `export-job.ts`). The export record keeps who, when, what, how many rows, the size and the checksum;
 * it and its file go after 30 days.
 */
import { createHash } from 'node:crypto';
import { parseRollUps, rollUpRoot } from '#functions/costs/roll-ups';
import { createJob } from '#functions/jobs/worker';
import type { Principal } from '#shared/auth/principal';
import { config } from '#shared/config';
import { presignDownload, putObject } from '#shared/data/files';
import { uuidv7 } from '#shared/data/ids';
import { countedDay, expiryOf, keptIndexKeys } from '#shared/data/retention';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { byPrincipal, commitChecked, newRecord } from '#shared/engine/record-writes';
import { ValidationError } from '#shared/jsonapi/errors';
import { exportsDefinition, keptExports, RETENTION_DAYS } from './definitions';
import { closing, contentTypeOf, opening, pagesOf, pageText, type Written } from './file';
import { EXPORT_JOB } from './job-kinds';
import type { ExportRequest } from './request';

/** A roll-up export's filter must parse, name this organisation and a node in it: 400 or 404 now. */
const checkRollUps = async (scope: Scope, orgId: string, text: string) => {
  const pointer = '/data/attributes/filters/filter';
  let filter: ReturnType<typeof parseRollUps>;
  try {
    filter = parseRollUps(text);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError({ code: error.code, detail: error.detail, source: { pointer } });
  }
  if (filter?.organisation !== orgId) {
    throw new ValidationError({
      detail: `The roll-up filter must name this organisation: eq(organisation,${orgId}).`,
      source: { pointer },
    });
  }
  await rollUpRoot(scope, filter);
};

/**
 * The collection's file, written within the request when it has no more than `EXPORT_INLINE_ROWS` rows;
 * null when it has more (nothing is written: the job starts again from the first page).
 */
const smallFile = async (scope: Scope, orgId: string, request: ExportRequest, baseUrl: string) => {
  const { format } = request.attributes;
  let text = opening(format);
  let written: Written = { rows: 0, columns: null };
  for await (const { items, next } of pagesOf(scope, orgId, request, baseUrl)) {
    const page = pageText(format, items, written);
    text += page.text;
    written = page.written;
    if (written.rows > config.EXPORT_INLINE_ROWS) return null;
    if (!next) return { body: Buffer.from(text + closing(format, written)), rows: written.rows };
  }
  return null;
};

/**
 * Requests an export: its record, complete with its file (a small collection), or the job that writes
 * the file, with the record it fills (`processing` until then).
 */
export const requestExport = async (
  scope: Scope,
  orgId: string,
  request: ExportRequest,
  principal: Principal,
  baseUrl: string,
  now = new Date(),
): Promise<{ record: StoredResource } | { job: StoredResource }> => {
  const { attributes } = request;
  const extension = attributes.format === 'csv' ? 'csv' : 'json';
  const id = uuidv7(now.getTime());
  const draft = newRecord(
    exportsDefinition,
    orgId,
    {
      attributes: {
        subject_type: attributes.subject_type,
        format: attributes.format,
        filters: attributes.filters ?? {},
        sort: attributes.sort ?? null,
        status: 'processing',
        // The download's file name (its Content-Disposition) says what it is; the key holds ids only.
        file_name: `${attributes.subject_type}-${now.toISOString().slice(0, 10)}-${id.slice(-8)}.${extension}`,
      },
      rels: byPrincipal('created_by', principal),
    },
    now,
    id,
  );
  const expiresAt = expiryOf(RETENTION_DAYS, now);
  const kept = keptExports(orgId, principal.id);
  const record: StoredResource = {
    ...draft,
    ...keptIndexKeys(kept, draft.id),
    meta: { ...draft.meta, expires_at: new Date(expiresAt * 1000).toISOString() },
    expires_at: expiresAt,
    object_key: `${orgId}/${draft.id}.${extension}`,
  };
  if (request.rollUpFilter !== null) await checkRollUps(scope, orgId, request.rollUpFilter);
  const file = request.rollUpFilter === null ? await smallFile(scope, orgId, request, baseUrl) : null;
  if (file) {
    await putObject(
      config.EXPORTS_BUCKET,
      String(record.object_key),
      contentTypeOf(attributes.format),
      file.body,
    );
    const complete = {
      ...record,
      attributes: {
        ...record.attributes,
        status: 'complete',
        row_count: file.rows,
        size: file.body.length,
        checksum: createHash('sha256').update(file.body).digest('base64'),
      },
    };
    await commitChecked(scope, [{ create: complete }, countedDay(kept, now)], []);
    return { record: complete };
  }
  // The job's links (a JSON export's `links.self`) name the host the request came to.
  const job = await createJob(scope, orgId, EXPORT_JOB.name, principal, {
    // The file holds what the subject's list shows: each part is written only while its creator may list it.
    permission: request.subject.permission,
    rels: { export: record.id },
    ops: [{ create: { ...record, base_url: baseUrl } }, countedDay(kept, now)],
  });
  return { job };
};

/** An export is its creator's: anyone else gets 404, as for a record they cannot see. */
export const isCreator = (record: StoredResource, principal: Principal | null) =>
  record.rels.created_by_user === principal?.id || record.rels.created_by_service_account === principal?.id;

/** The record with a fresh presigned GET of its file in `meta.download`, once the file is complete. */
export const withDownload = async (record: StoredResource) =>
  record.attributes.status === 'complete'
    ? {
        ...record,
        meta: {
          ...record.meta,
          download: {
            url: await presignDownload(
              config.EXPORTS_BUCKET,
              String(record.object_key),
              String(record.attributes.file_name),
            ),
            expires_in_seconds: 300,
          },
        },
      }
    : record;
