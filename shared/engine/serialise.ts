/** Stored records → JSON:API resource objects, generically, from their resource definition. */
import type { StoredResource } from '../data/stored-resource';
import type { Relationship, ResourceObject } from '../jsonapi/document';
import type { ResourceDefinition } from './declaration';

const relationship = (definition: ResourceDefinition, item: StoredResource, name: string): Relationship => {
  const target = definition.relationships[name];
  const stored = name === 'organisation' ? item.org_id : item.rels[name];
  if (target?.many || Array.isArray(stored)) {
    const ids = Array.isArray(stored) ? stored : [];
    return { data: ids.map((id) => ({ type: target?.type ?? '', id })) };
  }
  if (!target || !stored) return { data: null };
  if (typeof stored === 'string') return { data: { type: target.type, id: stored } };
  return { data: { type: target.type, id: stored.id, meta: stored.meta } };
};

export const toResourceObject = (
  definition: ResourceDefinition,
  item: StoredResource,
  baseUrl: string,
): ResourceObject => ({
  type: definition.type,
  id: item.id,
  attributes: item.attributes,
  meta: item.meta,
  relationships: Object.fromEntries(
    Object.keys(definition.relationships).map((name) => [name, relationship(definition, item, name)]),
  ),
  ...(definition.selfPath && { links: { self: `${baseUrl}${definition.selfPath(item)}` } }),
});

/** The ids a record's relationship points at, for include resolution. */
export const relatedIds = (item: StoredResource, name: string): string[] => {
  const stored = name === 'organisation' ? item.org_id : item.rels[name];
  if (Array.isArray(stored)) return stored;
  if (typeof stored === 'string') return [stored];
  return stored ? [stored.id] : [];
};
