/**
 * Running an export. `subject_type` names a collection and decides authorisation: the caller needs that
 * collection's own list permission in the organisation (checked by the handler, which passes the scope
 * it allows), and the file holds exactly what that list would show them, with the same filters and
 * sort. Records stream from DynamoDB page by page through the formatter, a SHA-256 and byte count, into a
 * multipart upload: the collection is never held in memory. The export record keeps who, when, what,
 * how many rows, the size and the checksum; it and its file go after 30 days.
 */
import { createHash } from 'node:crypto';
import { PassThrough, Transform } from 'node:stream';
import * as z from 'zod';
import type { Principal } from '../../auth/principal';
import { config } from '../../config';
import { presignDownload, uploadStream } from '../../data/files';
import { streamPartition } from '../../data/repository';
import type { Scope } from '../../data/scope';
import type { StoredResource } from '../../data/stored-resource';
import { columnsOf, dataRow, headerRow, type Row } from '../../domain/exports/csv';
import type { Permission } from '../../domain/iam/permissions';
import { line } from '../../jsonapi/attribute-types';
import { parseCollectionQuery, type QueryParameters } from '../../jsonapi/collection-query';
import { jsonapi, type ResourceObject } from '../../jsonapi/document';
import { ValidationError } from '../../jsonapi/errors';
import { parseDocument } from '../../jsonapi/request-document';
import { equipmentItems, vehicles } from '../assets/definitions';
import { auditEvents } from '../audit/audit-events';
import { rollUpResources } from '../costs/roll-ups';
import { customerContacts } from '../customers/definitions';
import { locations, properties } from '../places/definitions';
import { operations, schemes, workOrders } from '../projects/definitions';
import { byPrincipal, commitChecked, newRecord } from '../record-writes';
import type { ResourceDefinition } from '../resource-definition';
import { toResourceObject } from '../serialise';
import { permits } from '../street-works/definitions';
import { exportsDefinition } from './definitions';

export const RETENTION_DAYS = 30;

/** What can be exported, and the permission listing it needs (the same as its collection route's). */
export const exportSubjects: Record<
  string,
  { definition: ResourceDefinition | null; permission: Permission }
> = {
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
  // Computed, not stored: `filters.filter` is the expression GET /v3/cost-rollups takes.
  'cost-rollups': { definition: null, permission: 'cost-lines:view' },
};

export const createExportDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('exports'),
      attributes: z.strictObject({
        subject_type: z.enum(Object.keys(exportSubjects) as [string, ...string[]]),
        format: z.enum(['csv', 'json']),
        filters: z.record(z.string().regex(/^[a-z_.]{1,100}$/), line(500)).optional(),
        sort: line(100).optional(),
      }),
    }),
  }),
);

/** The export request: its subject (for the handler's permission check) and its parsed query. */
export const parseExport = (body: unknown) => {
  const { data } = parseDocument(createExportDocument, body);
  const { filters = {}, sort } = data.attributes;
  const subject = exportSubjects[data.attributes.subject_type] as (typeof exportSubjects)[string];
  if (!subject.definition) {
    const { filter, ...other } = filters;
    const [extra] = Object.keys(other);
    if (!filter || extra !== undefined || sort) {
      const at = extra !== undefined ? `filters/${extra}` : sort ? 'sort' : 'filters';
      throw new ValidationError({
        detail:
          'A cost roll-up export takes exactly filters.filter: the expression GET /v3/cost-rollups takes.',
        source: { pointer: `/data/attributes/${at}` },
      });
    }
    return { attributes: data.attributes, subject, query: null, rollUpFilter: filter };
  }
  const parameters: QueryParameters = {
    ...Object.fromEntries(Object.entries(filters).map(([k, v]) => [`filter[${k}]`, v])),
    ...(sort && { sort }),
  };
  try {
    const query = parseCollectionQuery(
      parameters,
      subject.definition.collection ?? { filters: {}, sorts: {}, defaultSort: 'created_at', includes: [] },
    );
    return { attributes: data.attributes, subject, query, rollUpFilter: null };
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

const identifiers = (data: unknown) =>
  Array.isArray(data) ? data.map((d: { id: string }) => d.id) : ((data as { id: string } | null)?.id ?? null);

const rowOf = (resource: ResourceObject): Row => ({
  id: resource.id,
  attributes: resource.attributes ?? {},
  relationships: Object.fromEntries(
    Object.entries(resource.relationships ?? {})
      .filter(([name]) => name !== 'organisation')
      .map(([name, r]) => [name, identifiers((r as { data: unknown }).data)]),
  ),
  created_at: resource.meta?.created_at ?? null,
  updated_at: resource.meta?.updated_at ?? null,
});

/** Writes the pages, formatted, into `out` (ended when done); resolves the row count. */
const writeRecords = async (
  out: PassThrough,
  pages: AsyncIterable<ResourceObject[]>,
  format: 'csv' | 'json',
) => {
  let rows = 0;
  let columns: ReturnType<typeof columnsOf> | null = null;
  const write = (chunk: string) =>
    out.write(chunk) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve()));
  if (format === 'json') await write(`{"jsonapi":${JSON.stringify(jsonapi)},"data":[`);
  for await (const page of pages) {
    if (format === 'csv') {
      const shape: ReturnType<typeof columnsOf> = columns ?? columnsOf(page.map(rowOf));
      if (rows === 0) await write(headerRow(shape));
      columns = shape;
      await write(page.map((item) => dataRow(rowOf(item), shape)).join(''));
    } else {
      await write(page.map((item, i) => `${rows + i === 0 ? '' : ','}${JSON.stringify(item)}`).join(''));
    }
    rows += page.length;
  }
  if (format === 'json') await write(`],"meta":{"rows":${rows}}}`);
  if (format === 'csv' && rows === 0) await write(headerRow({ attributes: [], relationships: [] }));
  out.end();
  return rows;
};

/** The subject's resource objects, page by page: stored collections from DynamoDB, roll-ups as computed. */
async function* resources(
  scope: Scope,
  orgId: string,
  { subject, query, rollUpFilter }: ReturnType<typeof parseExport>,
  principal: Principal,
  baseUrl: string,
): AsyncGenerator<ResourceObject[]> {
  const { definition } = subject;
  if (definition && query) {
    for await (const page of streamPartition(scope, orgId, definition.type, query)) {
      yield page.map((item) => toResourceObject(definition, item, baseUrl));
    }
    return;
  }
  if (!rollUpFilter?.includes(`eq(organisation,${orgId})`)) {
    throw new ValidationError({
      detail: `The roll-up filter must name this organisation: eq(organisation,${orgId}).`,
      source: { pointer: '/data/attributes/filters/filter' },
    });
  }
  yield (await rollUpResources(principal, rollUpFilter, baseUrl)) ?? [];
}

export const runExport = async (
  scope: Scope,
  orgId: string,
  request: ReturnType<typeof parseExport>,
  principal: Principal,
  baseUrl: string,
  now = new Date(),
) => {
  const { attributes } = request;
  const extension = attributes.format === 'csv' ? 'csv' : 'json';
  const draft = newRecord(
    exportsDefinition,
    orgId,
    {
      attributes: {
        subject_type: attributes.subject_type,
        format: attributes.format,
        filters: attributes.filters ?? {},
        sort: attributes.sort ?? null,
        status: 'complete',
      },
      rels: byPrincipal('created_by', principal),
    },
    now,
  );
  // The key holds ids only; the download's file name (its Content-Disposition) says what it is.
  const key = `${orgId}/${draft.id}.${extension}`;
  const name = `${attributes.subject_type}-${now.toISOString().slice(0, 10)}-${draft.id.slice(-8)}.${extension}`;
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
    writeRecords(source, resources(scope, orgId, request, principal, baseUrl), attributes.format),
    uploadStream(config.EXPORTS_BUCKET, key, contentType, measured),
  ]);
  const expiresAt = Math.floor(now.getTime() / 1000) + RETENTION_DAYS * 86_400;
  const record: StoredResource = {
    ...draft,
    attributes: {
      ...draft.attributes,
      row_count: rows,
      size: bytes,
      checksum: hash.digest('base64'),
      file_name: name,
    },
    meta: { ...draft.meta, expires_at: new Date(expiresAt * 1000).toISOString() },
    expires_at: expiresAt,
    object_key: key,
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
        String(record.object_key),
        String(record.attributes.file_name),
      ),
      expires_in_seconds: 300,
    },
  },
});
