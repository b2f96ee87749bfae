/** Stored records → JSON:API resource objects, generically, from their resource definition. */
import type { StoredResource } from '../data/stored-resource';
import type { Relationship, ResourceObject } from '../jsonapi/document';
import type { ResourceDefinition } from './declaration';
import { identifiersOf, storedUnder } from './relationship-targets';

const relationship = (definition: ResourceDefinition, item: StoredResource, name: string): Relationship => {
  const target = definition.relationships[name];
  const stored = storedUnder(item, name);
  if (target?.many || Array.isArray(stored)) {
    const ids = Array.isArray(stored) ? stored : [];
    return { data: ids.map((id) => ({ type: target?.type ?? '', id })) };
  }
  const [named] = target ? identifiersOf(target, stored) : [];
  if (!named) return { data: null };
  // A to-one link may carry identifier meta (an allocation's `starts_at`).
  return { data: typeof stored === 'object' && stored ? { ...named, meta: stored.meta } : named };
};

export const toResourceObject = (
  definition: ResourceDefinition,
  item: StoredResource,
  baseUrl: string,
): ResourceObject => ({
  type: definition.type,
  id: item.id,
  attributes: definition.servedAttributes ? definition.servedAttributes(item.attributes) : item.attributes,
  meta: item.meta,
  relationships: Object.fromEntries(
    Object.keys(definition.relationships).map((name) => [name, relationship(definition, item, name)]),
  ),
  ...(definition.selfPath && { links: { self: `${baseUrl}${definition.selfPath(item)}` } }),
});

/** The ids a record's relationship points at (of a single-type relationship: use `identifiersOf` for any). */
export const relatedIds = (item: StoredResource, name: string): string[] => {
  const stored = storedUnder(item, name);
  if (Array.isArray(stored)) return stored;
  if (typeof stored === 'string') return [stored];
  return stored ? [stored.id] : [];
};
