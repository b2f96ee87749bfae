/**
 * What a relationship points at, read the same way by the serialiser, the include resolver, the existence
 * checks and the OpenAPI document. A polymorphic relationship (`{types}`) stores `<type>:<id>` in `rels`:
 * the value alone names the record, so `filter[subject]=<type>:<id>` is equality on it and `filter[subject.type]`
 * a prefix of it, with no second field to keep in step. Single-type relationships keep storing the bare id.
 */
import type { StoredRelationship, StoredResource } from '../data/stored-resource';
import type { FilterOption } from '../jsonapi/collection-query';
import type { RelationshipDefinition } from './declaration';

/** A record a relationship names. */
export interface Identifier {
  type: string;
  id: string;
}

/** The types a relationship may point at: its one type, or each of its several. */
export const targetTypes = (relationship: RelationshipDefinition): readonly string[] =>
  relationship.types ?? [relationship.type];

/** `schemes:0192…`: how a polymorphic relationship stores the record it names. */
export const storedIdentifier = ({ type, id }: Identifier): string => `${type}:${id}`;

/**
 * The record a stored polymorphic value names, or null for a value that names none of the relationship's
 * types (written before the relationship took that type away: it reads as no link rather than a wrong one).
 */
const polymorphicIdentifier = (relationship: RelationshipDefinition, stored: string): Identifier | null => {
  const colon = stored.indexOf(':');
  const type = stored.slice(0, colon);
  return colon > 0 && relationship.types?.includes(type) ? { type, id: stored.slice(colon + 1) } : null;
};

/** The records a stored relationship names, each with its type. */
export const identifiersOf = (
  relationship: RelationshipDefinition,
  stored: StoredRelationship | undefined,
): Identifier[] => {
  if (relationship.types) {
    const named = typeof stored === 'string' ? polymorphicIdentifier(relationship, stored) : null;
    return named ? [named] : [];
  }
  const { type } = relationship;
  if (Array.isArray(stored)) return stored.map((id) => ({ type, id }));
  if (typeof stored === 'string') return [{ type, id: stored }];
  return stored ? [{ type, id: stored.id }] : [];
};

/** The value a record holds under a relationship's name: the organisation's id for the house default. */
export const storedUnder = (
  item: Pick<StoredResource, 'org_id' | 'rels'>,
  name: string,
): StoredRelationship => (name === 'organisation' ? item.org_id : item.rels[name]) ?? null;

/**
 * The filters of a polymorphic relationship, for a collection's declaration: `filter[<name>]=<type>:<id>`
 * (equality on the stored value) and `filter[<name>.type]=<type>` (a prefix of it), each refusing a type
 * the relationship does not name.
 */
export const polymorphicFilters = <Name extends string>(
  name: Name,
  { types }: { types: readonly string[] },
): Record<Name | `${Name}.type`, FilterOption> => {
  const path = `rels.${name}`;
  return {
    [name]: {
      kind: 'eq',
      path,
      link: { types, part: 'record' },
      description: `The record it names, as \`<type>:<id>\`; the type one of ${types.join(', ')}.`,
    },
    [`${name}.type`]: {
      kind: 'eq',
      path,
      link: { types, part: 'type' },
      description: `The type of the record it names: every record whose ${name} is one of that type.`,
    },
  } as Record<Name | `${Name}.type`, FilterOption>;
};

/**
 * Refuses a relationship declaration the engine could not serve: a polymorphic one naming a type twice
 * (its request schema is told apart by `type`, and its stored values by their prefix).
 */
export const checkRelationships = (type: string, relationships: Record<string, RelationshipDefinition>) => {
  for (const [name, relationship] of Object.entries(relationships)) {
    const types = targetTypes(relationship);
    if (new Set(types).size !== types.length)
      throw new Error(`${type}.${name} names a type twice: ${types.join(', ')}`);
  }
};
