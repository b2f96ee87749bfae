/**
 * Search across an organisation's schemes, work orders and operations by name or code prefix, as one
 * collection. Each type answers from its sort indexes (`lsi1` holds the case-folded name, `lsi2` the
 * code) with a `begins_with` Query, so a search reads only what matches; sorting and paging then run
 * over the matches with the standard collection features.
 */
import { applyInMemory } from '#shared/data/in-memory-collection';
import { queryIndexPrefix } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { pageDocument, readPage } from '#shared/engine/collection';
import { toResourceObject } from '#shared/engine/serialise';
import { type CollectionOptions, featuresMeta, parseCollectionQuery } from '#shared/jsonapi/collection-query';
import type { CollectionDocument } from '#shared/jsonapi/document';
import type { RequestTarget } from '#shared/jsonapi/document-links';
import { ValidationError } from '#shared/jsonapi/errors';
import { operations, schemes, workOrders } from './definitions';

const searchable = [schemes, workOrders, operations];

export const searchOptions: CollectionOptions = {
  filters: {
    // Every search reads by a prefix of the indexed names and codes: there is no reading them all.
    prefix: {
      kind: 'eq',
      path: 'search.prefix',
      required: true,
      minLength: 2,
      description: 'The beginning of a name or code, case-insensitive: at least two characters.',
    },
    type: { kind: 'eq', path: 'type' },
  },
  sorts: {
    name: { path: 'attributes.name' },
    code: { path: 'attributes.code' },
    created_at: { path: 'meta.created_at' },
  },
  defaultSort: 'name',
  includes: [],
};

export const searchProjects = async (
  scope: Scope,
  orgId: string,
  request: RequestTarget,
): Promise<CollectionDocument> => {
  const query = parseCollectionQuery(request.query, searchOptions);
  const value = (field: string) => {
    const clause = query.filters.find((f) => f.field === field);
    return clause?.op === 'eq' ? clause.value : undefined;
  };
  const prefix = value('prefix');
  const type = value('type');
  // The parser refused a query without it, or shorter than its declared length.
  if (typeof prefix !== 'string') throw new Error('the search is declared to require filter[prefix]');
  const types = searchable.filter((d) => type === undefined || d.type === type);
  if (types.length === 0) {
    throw new ValidationError({
      detail: 'filter[type] is schemes, work-orders or operations.',
      source: { parameter: 'filter[type]' },
    });
  }
  const folded = prefix.trim().toLowerCase();
  const found = (
    await Promise.all(
      types.flatMap((d) => [
        queryIndexPrefix(scope, orgId, d.type, 'lsi1', folded),
        queryIndexPrefix(scope, orgId, d.type, 'lsi2', folded),
      ]),
    )
  ).flat();
  const unique = [...new Map(found.map((r: StoredResource): [string, StoredResource] => [r.id, r])).values()];
  // The prefix and type were the reads' own conditions: only order and page apply in memory.
  const page = await readPage({ ...request, scope }, query, (q) =>
    applyInMemory(unique, { ...q, filters: [] }),
  );
  return pageDocument(request, page, {
    data: page.items.map((item) =>
      toResourceObject(searchable.find((d) => d.type === item.type) ?? schemes, item, request.baseUrl),
    ),
    included: [],
    features: featuresMeta(searchOptions),
  });
};
