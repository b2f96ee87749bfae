/**
 * An export's file, written a page at a time by the request (a small export, whole) or by its job (part
 * by part): what the subject's records are, page by page, and how each page is written as CSV or as a
 * JSON:API collection document. What has been written so far (`Written`: rows, and the CSV's columns,
 * fixed by its first page) is all a writer carries from one page, or one invocation, to the next.
 */

import { parseRollUps, rollUpRoot, rollUpsUnder } from '#functions/costs/roll-ups';
import { type PageKey, streamPartition } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import { toResourceObject } from '#shared/engine/serialise';
import { jsonapi, type ResourceObject } from '#shared/jsonapi/document';
import type { ExportRequest } from './request';
import { columnsOf, dataRow, headerRow, type Row } from './rules/csv';

export type Format = 'csv' | 'json';

export interface Written {
  rows: number;
  columns: ReturnType<typeof columnsOf> | null;
}

export const contentTypeOf = (format: Format) =>
  format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.api+json';

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

/** The file's beginning. */
export const opening = (format: Format) =>
  format === 'json' ? `{"jsonapi":${JSON.stringify(jsonapi)},"data":[` : '';

/** A page of records as text, after `written`; and what has been written with it. */
export const pageText = (
  format: Format,
  page: readonly ResourceObject[],
  written: Written,
): { text: string; written: Written } => {
  const rows = written.rows + page.length;
  if (format === 'json') {
    const text = page
      .map((item, i) => `${written.rows + i === 0 ? '' : ','}${JSON.stringify(item)}`)
      .join('');
    return { text, written: { rows, columns: null } };
  }
  if (page.length === 0) return { text: '', written };
  const columns = written.columns ?? columnsOf(page.map(rowOf));
  const body = page.map((item) => dataRow(rowOf(item), columns)).join('');
  return { text: written.columns ? body : headerRow(columns) + body, written: { rows, columns } };
};

/** The file's end: the JSON document's close, or a CSV's header when no row gave it one. */
export const closing = (format: Format, { rows, columns }: Written) =>
  format === 'json'
    ? `],"meta":{"rows":${rows}}}`
    : columns
      ? ''
      : headerRow({ attributes: [], relationships: [] });

/**
 * The subject's resource objects, page by page, each with the key the next page starts from (none after
 * the last): a stored collection from DynamoDB, resumable `from` a key; cost roll-ups as one computed page.
 */
export async function* pagesOf(
  scope: Scope,
  orgId: string,
  { subject, query, rollUpFilter }: ExportRequest,
  baseUrl: string,
  from?: PageKey,
): AsyncGenerator<{ items: ResourceObject[]; next?: PageKey }> {
  const { definition } = subject;
  if (definition && query) {
    const sparse = definition.sparseIndex?.(orgId, query.filters) ?? undefined;
    for await (const { items, next } of streamPartition(scope, orgId, definition.type, query, {
      from,
      sparse,
    })) {
      yield { items: items.map((item) => toResourceObject(definition, item, baseUrl)), next };
    }
    return;
  }
  const filter = parseRollUps(rollUpFilter ?? '');
  if (filter) yield { items: await rollUpsUnder(scope, await rollUpRoot(scope, filter), filter, baseUrl) };
}
