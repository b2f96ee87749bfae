/**
 * Running an export. `subject_type` names a collection and decides authorisation: the caller needs that
 * collection's own list permission in the organisation (checked by the handler, which passes the scope
 * it allows), and the file holds exactly what that list would show them, with the same filters and
 * sort. Records stream from DynamoDB page by page through the formatter, a SHA-256 and byte count, into a
 * multipart upload: the collection is never held in memory. The export record keeps who, when, what,
 * how many rows, the size and the checksum; it and its file go after 30 days.
 */
import { createHash, randomUUID } from 'node:crypto';
import { PassThrough, Transform } from 'node:stream';
import { z } from 'zod';
import type { Principal } from '../../auth/principal';
import { config } from '../../config';
import { presignDownload, uploadStream } from '../../data/files';
import { streamPartition } from '../../data/repository';
import type { Scope } from '../../data/scope';
import type { StoredResource } from '../../data/stored-resource';
import { columnsOf, dataRow, headerRow, type Row } from '../../domain/exports/csv';
import type { Permission } from '../../domain/iam/permissions';
import { parseCollectionQuery, type QueryParameters } from '../../jsonapi/collection-query';
import { jsonapi } from '../../jsonapi/document';
import { ValidationError } from '../../jsonapi/errors';
import { parseDocument } from '../../jsonapi/request-document';
import { equipmentItems, vehicles } from '../assets/definitions';
import { auditEvents } from '../audit/audit-events';
import { customerContacts } from '../customers/definitions';
import { locations, properties } from '../places/definitions';
import { operations, schemes, workOrders } from '../projects/definitions';
import { commitChecked, newRecord } from '../record-writes';
import type { ResourceDefinition } from '../resource-definition';
import { relatedIds, toResourceObject } from '../serialise';
import { permits } from '../street-works/definitions';
import { exportsDefinition } from './definitions';

export const RETENTION_DAYS = 30;

/** What can be exported, and the permission listing it needs (the same as its collection route's). */
export const exportSubjects: Record<string, { definition: ResourceDefinition; permission: Permission }> = {
  equipment: { definition: equipmentItems, permission: 'assets:view' },
  vehicles: { definition: vehicles, permission: 'assets:view' },
  schemes: { definition: schemes, permission: 'projects:view' },
  'work-orders': { definition: workOrders, permission: 'projects:view' },
  operations: { definition: operations, permission: 'projects:view' },
  locations: { definition: locations, permission: 'places:view' },
  properties: { definition: properties, permission: 'places:view' },
  'audit-events': { definition: auditEvents, permission: 'audit-events:view' },
  'customer-contacts': { definition: customerContacts, permission: 'customers:view' },
  permits: { definition: permits, permission: 'street-works:view' },
};

const schema = z.strictObject({
  data: z.strictObject({
    type: z.literal('exports'),
    attributes: z.strictObject({
      subject_type: z.enum(Object.keys(exportSubjects) as [string, ...string[]]),
      format: z.enum(['csv', 'json']),
      filters: z.record(z.string().regex(/^[a-z_.]+$/), z.string().max(500)).optional(),
      sort: z.string().max(100).optional(),
    }),
  }),
});

/** The export request: its subject (for the handler's permission check) and its parsed query. */
export const parseExport = (body: unknown) => {
  const { data } = parseDocument(schema, body);
  const subject = exportSubjects[data.attributes.subject_type] as (typeof exportSubjects)[string];
  const parameters: QueryParameters = {
    ...Object.fromEntries(Object.entries(data.attributes.filters ?? {}).map(([k, v]) => [`filter[${k}]`, v])),
    ...(data.attributes.sort && { sort: data.attributes.sort }),
  };
  try {
    const query = parseCollectionQuery(
      parameters,
      subject.definition.collection ?? { filters: {}, sorts: {}, defaultSort: 'created_at', includes: [] },
    );
    return { attributes: data.attributes, subject, query };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const pointerOf = (parameter = '') => {
      const field = /^filter\[(.+)\]$/.exec(parameter)?.[1];
      return field ? `/data/attributes/filters/${field}` : '/data/attributes/sort';
    };
    const problems = (error.problems.length > 0 ? error.problems : [error]).map(
      (p) =>
        new ValidationError({
          detail: p.detail ?? p.message,
          source: { pointer: pointerOf(p.source?.parameter) },
        }),
    );
    throw new ValidationError({ problems });
  }
};

const rowOf = (definition: ResourceDefinition, item: StoredResource): Row => ({
  id: item.id,
  attributes: item.attributes,
  relationships: Object.fromEntries(
    Object.keys(definition.relationships)
      .filter((name) => name !== 'organisation')
      .map((name) => [
        name,
        definition.relationships[name]?.many ? relatedIds(item, name) : (relatedIds(item, name)[0] ?? null),
      ]),
  ),
  created_at: item.meta.created_at,
  updated_at: item.meta.updated_at,
});

/** Streams the subject's records, formatted, into `out` (ended when done); resolves the row count. */
const writeRecords = async (
  out: PassThrough,
  pages: AsyncGenerator<StoredResource[]>,
  definition: ResourceDefinition,
  format: 'csv' | 'json',
  baseUrl: string,
) => {
  let rows = 0;
  let columns: ReturnType<typeof columnsOf> | null = null;
  const write = (chunk: string) =>
    out.write(chunk) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve()));
  if (format === 'json') await write(`{"jsonapi":${JSON.stringify(jsonapi)},"data":[`);
  for await (const page of pages) {
    if (format === 'csv') {
      columns ??= columnsOf(page.map((item) => rowOf(definition, item)));
      if (rows === 0) await write(headerRow(columns));
      await write(
        page
          .map((item) => dataRow(rowOf(definition, item), columns as ReturnType<typeof columnsOf>))
          .join(''),
      );
    } else {
      await write(
        page
          .map(
            (item, i) =>
              `${rows + i === 0 ? '' : ','}${JSON.stringify(toResourceObject(definition, item, baseUrl))}`,
          )
          .join(''),
      );
    }
    rows += page.length;
  }
  if (format === 'json') await write(`],"meta":{"rows":${rows}}}`);
  if (format === 'csv' && rows === 0) await write(headerRow({ attributes: [], relationships: [] }));
  out.end();
  return rows;
};

export const runExport = async (
  scope: Scope,
  orgId: string,
  request: ReturnType<typeof parseExport>,
  principal: Principal,
  baseUrl: string,
  now = new Date(),
) => {
  const { attributes, subject, query } = request;
  const id = newRecord(exportsDefinition, orgId, {}, now).id;
  const extension = attributes.format === 'csv' ? 'csv' : 'json';
  const key = `${orgId}/${id}.${extension}`;
  const hash = createHash('sha256');
  let bytes = 0;
  const measured = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const source = new PassThrough();
  source.pipe(measured);
  const contentType = attributes.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.api+json';
  const [rows] = await Promise.all([
    writeRecords(
      source,
      streamPartition(scope, orgId, subject.definition.type, query),
      subject.definition,
      attributes.format,
      baseUrl,
    ),
    uploadStream(config.EXPORTS_BUCKET, key, contentType, measured),
  ]);
  const expiresAt = Math.floor(now.getTime() / 1000) + RETENTION_DAYS * 86_400;
  const record: StoredResource = {
    ...newRecord(
      exportsDefinition,
      orgId,
      {
        attributes: {
          subject_type: attributes.subject_type,
          format: attributes.format,
          filters: attributes.filters ?? {},
          sort: attributes.sort ?? null,
          status: 'complete',
          row_count: rows,
          size: bytes,
          checksum: hash.digest('base64'),
          object_key: key,
          file_name: `${attributes.subject_type}-${now.toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}.${extension}`,
        },
        meta: { expires_at: new Date(expiresAt * 1000).toISOString() },
        rels: {
          created_by_user: principal.kind === 'user' ? principal.id : null,
          created_by_service_account: principal.kind === 'service-account' ? principal.id : null,
        },
      },
      now,
    ),
    id,
    sk: id,
    expires_at: expiresAt,
  };
  await commitChecked(scope, [{ create: record }], []);
  return record;
};

/** An export is its creator's: anyone else gets 404, as for a record they cannot see. */
export const isCreator = (record: StoredResource, principal: Principal | null) =>
  record.rels.created_by_user === principal?.id || record.rels.created_by_service_account === principal?.id;

/** The record with a fresh presigned GET of its file in `meta.download`. */
export const withDownload = async (record: StoredResource) => ({
  ...record,
  meta: {
    ...record.meta,
    download: {
      url: await presignDownload(
        config.EXPORTS_BUCKET,
        String(record.attributes.object_key),
        String(record.attributes.file_name),
      ),
      expires_in_seconds: 300,
    },
  },
});
