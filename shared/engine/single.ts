/** Single-resource reads and answers, shared by every get, create and update endpoint. */
import type { Principal } from '../auth/principal';
import { directoryOrg } from '../data/id-directory';
import { batchGetInScope, getInScope } from '../data/repository';
import type { Scope } from '../data/scope';
import type { StoredResource } from '../data/stored-resource';
import { entityTagOf, matchesIfMatch } from '../http/preconditions';
import { parseResourceQuery } from '../jsonapi/collection-query';
import { ENTITY_TAG, type ResourceDocument, resourceDocument } from '../jsonapi/document';
import type { RequestTarget } from '../jsonapi/document-links';
import { NotFoundError, PreconditionFailedError } from '../jsonapi/errors';
import { allowedTransitionsFor } from './allowed-transitions';
import { resolveIncludes } from './includes';
import type { ResourceDefinition } from './resource-definition';
import { toResourceObject } from './serialise';

/**
 * The record with this id inside the scope, or 404 (records outside it do not exist for the caller); 412
 * when it is the record the request's `If-Match` is about and no tag it names is current. A write that
 * follows replaces or deletes the version read here, a condition of its transaction, so a change made
 * in between is refused too (`record-writes.ts`).
 */
export const readInScope = async (
  scope: Scope,
  definition: ResourceDefinition,
  id: string,
  /**
   * The record a type serves before one is stored (an organisation's switch of a feature, on until first
   * written), looked for in the scope's organisations only when none is stored; `version` 0.
   */
  unstored?: (orgIds: readonly string[], id: string) => StoredResource | undefined,
): Promise<StoredResource> =>
  current(
    scope,
    definition,
    id,
    (await getInScope(scope, definition.keyOf, id)) ?? unstored?.(scope.orgIds, id),
  );

/**
 * The record a move starts from: at its own key, or where its lifecycle parks it (a deleted node), both
 * looked for in one read (in the organisation the id directory names, as `getInScope`); 404 and 412 as
 * `readInScope`.
 */
export const readForMove = async (
  scope: Scope,
  definition: ResourceDefinition,
  id: string,
): Promise<StoredResource> => {
  const parked = definition.lifecycle?.parked;
  if (!parked) return readInScope(scope, definition, id);
  const located = directoryOrg(scope, id);
  const keys = (located === undefined ? scope.orgIds : [located]).flatMap((orgId) => [
    definition.keyOf(orgId, id),
    parked.keyOf(orgId, id),
  ]);
  const [found] = await batchGetInScope(scope, keys);
  return current(scope, definition, id, found);
};

/** The record found, or 404; 412 when the request's `If-Match` is about it and names no current tag. */
const current = (
  scope: Scope,
  definition: ResourceDefinition,
  id: string,
  found: StoredResource | null | undefined,
): StoredResource => {
  if (!found) throw notFound(definition, id);
  const { precondition } = scope;
  if (precondition?.id === id && !matchesIfMatch(precondition.ifMatch, entityTagOf(found)))
    throw new PreconditionFailedError(entityTagOf(found));
  return found;
};

/** The answer for a record the scope does not hold. */
export const notFound = (definition: Pick<ResourceDefinition, 'type'>, id: string) =>
  new NotFoundError(`No ${definition.type} with id ${id}.`);

/** The request one record answers: its scope, and its URL for `links.self` (`ApiRequest` is one). */
export interface ResourceRequest extends RequestTarget {
  scope: Scope;
  /** The caller, for whom a stateful record's `meta.allowed_transitions` is computed (`ApiRequest` has it). */
  principal?: Principal | null;
}

/** The document for one record, with the includes the request asks for among those the type declares. */
export const resourceResponse = async (
  request: ResourceRequest,
  definition: ResourceDefinition,
  item: StoredResource,
  /** The query that names includes: none for a route whose query is another protocol's (an SSO callback). */
  query = request.query,
): Promise<ResourceDocument> => {
  const { scope, baseUrl } = request;
  const include = parseResourceQuery(query, definition.collection?.includes ?? []);
  const [[derived = item], transitions] = await Promise.all([
    definition.derive ? definition.derive(scope, [item]) : [item],
    // What the caller may do next, and why not: from the declared machine, for this one record only.
    request.principal === undefined
      ? undefined
      : allowedTransitionsFor(scope, definition, item, request.principal),
  ]);
  const answered = transitions
    ? { ...derived, meta: { ...derived.meta, allowed_transitions: transitions } }
    : derived;
  const included = await resolveIncludes(scope, definition, [answered], include);
  return {
    ...resourceDocument(
      request,
      toResourceObject(definition, answered, baseUrl),
      included.map(({ definition: d, item: i }) => toResourceObject(d, i, baseUrl)),
    ),
    [ENTITY_TAG]: entityTagOf(item),
  };
};
