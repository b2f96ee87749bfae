/** Single-resource reads and answers, shared by every get, create and update endpoint. */
import { getInScope } from '../data/repository';
import type { Scope } from '../data/scope';
import type { StoredResource } from '../data/stored-resource';
import { parseResourceQuery, type QueryParameters } from '../jsonapi/collection-query';
import { type ResourceDocument, resourceDocument } from '../jsonapi/document';
import { NotFoundError } from '../jsonapi/errors';
import { resolveIncludes } from './includes';
import type { ResourceDefinition } from './resource-definition';
import { toResourceObject } from './serialise';

/** The record with this id inside the scope, or 404 (records outside it do not exist for the caller). */
export const readInScope = async (
  scope: Scope,
  definition: ResourceDefinition,
  id: string,
): Promise<StoredResource> => {
  const found = await getInScope(scope, definition.keyOf, id);
  if (!found) throw new NotFoundError(`No ${definition.type} with id ${id}.`);
  return found;
};

export interface ResourceRequest {
  scope: Scope;
  query: QueryParameters;
  baseUrl: string;
}

/** The document for one record, with the includes the request asks for among those the type declares. */
export const resourceResponse = async (
  { scope, query, baseUrl }: ResourceRequest,
  definition: ResourceDefinition,
  item: StoredResource,
): Promise<ResourceDocument> => {
  const include = parseResourceQuery(query, definition.collection?.includes ?? []);
  const [answered = item] = definition.derive ? await definition.derive(scope, [item]) : [item];
  const included = await resolveIncludes(scope, definition, [answered], include);
  return resourceDocument(
    toResourceObject(definition, answered, baseUrl),
    included.map(({ definition: d, item: i }) => toResourceObject(d, i, baseUrl)),
  );
};
