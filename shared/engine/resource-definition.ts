/**
 * One declaration per resource type: its type name, paths, permission family, relationships, collection
 * options, write schema, read attributes and endpoints. The area's routes, the generic handlers, the
 * serialiser's links, the include resolver, `meta.features` and the OpenAPI document all read from here
 * (see `shared/engine/area.ts`).
 */

import { keyFrom } from '../data/access-patterns';
import { declareEvents, LIFECYCLE_ACTIONS } from '../data/events';
import { declareFoundInOrganisation } from '../data/id-directory';
import type { StoredResource } from '../data/stored-resource';
import { fillPath, parameterNames } from '../http/path-template';
import type { ResourceDeclaration, ResourceDefinition, WritesDeclaration } from './declaration';
import { houseCollection, houseRelationships } from './house-defaults';
import { typeKeys } from './keys';
import { checkRelationships } from './relationship-targets';
import { toResourceObject } from './serialise';

/**
 * A record's own path from the item path: `{org_id}` is the record's organisation and the last
 * parameter its id; an item path with any other parameter cannot be filled from the record alone.
 */
const recordPath = (itemPath: string): ((record: StoredResource) => string) => {
  const names = parameterNames(itemPath);
  const idName = names.at(-1);
  if (!idName || names.some((name) => name !== idName && name !== 'org_id'))
    throw new Error(`${itemPath} cannot be a record's path: it must end in the id and take no other ids`);
  return (record) => fillPath(itemPath, { org_id: record.org_id, [idName]: record.id });
};

/**
 * Every declared type by name, filled as each declaration is evaluated (as `declareEvents` fills the events
 * map): the engine finds a relationship's target, or a stored record's type, here, and so imports no area
 * and not the route table that assembles them. An entry that serves declared types (an area's router, a
 * worker, a consumer) loads every declaration by importing the composition root, `shared/routes.ts`,
 * which checks that each type it assembles is the one declared under its name.
 */
const declaredTypes = new Map<string, ResourceDefinition>();

/** The declaration of a type, if one was made. */
export const declaredType = (type: string): ResourceDefinition | undefined => declaredTypes.get(type);

/** `ConstructionPhasePlan` → `construction-phase-plan`: the name a type's events go by. */
const kebab = (name: string) => name.replace(/(?<=[a-z0-9])([A-Z])/g, '-$1').toLowerCase();

export type {
  CollectionDeclaration,
  EndpointDeclaration,
  PermissionFamily,
  RelationshipDefinition,
  ResourceDeclaration,
  ResourceDefinition,
  WritesDeclaration,
} from './declaration';

/**
 * The writes' options are a closed set (the schema, the unique attribute and the moments): a key outside it
 * (an option since folded into a moment, such as `validate` or `inUse`) does not compile. Needed because a
 * declaration's type is inferred, and an inferred object is not checked for keys its constraint lacks.
 */
type ClosedWrites<Declaration> = Declaration extends { writes: () => Promise<infer Writes> }
  ? { writes: () => Promise<Writes & Record<Exclude<keyof Writes, keyof WritesDeclaration>, never>> }
  : Declaration extends { writes: () => infer Writes }
    ? { writes: () => Writes & Record<Exclude<keyof Writes, keyof WritesDeclaration>, never> }
    : unknown;

export const defineResource = <const Declaration extends ResourceDeclaration>(
  declared: Declaration & ClosedWrites<Declaration>,
): Omit<Declaration, 'keys' | 'relationships' | 'collection'> &
  Pick<ResourceDefinition, 'keyOf' | 'selfPath' | 'relationships' | 'collection'> & {
    keys: ResourceDefinition['keys'] & (Declaration['keys'] extends object ? Declaration['keys'] : unknown);
  } => {
  const declaration = {
    ...declared,
    relationships: houseRelationships(declared.relationships),
    collection: declared.collection && houseCollection(declared.collection),
  };
  checkRelationships(declaration.type, declaration.relationships);
  const keys = typeKeys(declaration);
  const definition = {
    keyOf: (orgId: string, id: string) => keyFrom(keys.record, { org_id: orgId, id }),
    ...declaration,
    keys,
    selfPath: declaration.selfPath ?? (declaration.itemPath ? recordPath(declaration.itemPath) : null),
  };
  const { events = [], names, type, lifecycle } = declaration;
  // A transition's event is an action of the type's without being listed again.
  const moves = Object.values(lifecycle?.transitions ?? {}).map((transition) => transition.event);
  declareEvents(
    type,
    events === false
      ? null
      : {
          name: kebab(names?.one ?? type),
          actions: [...new Set([...LIFECYCLE_ACTIONS, ...events, ...moves])],
          present: (record) => {
            const { links: _links, ...resource } = toResourceObject(definition, record, '');
            return resource;
          },
          relationships: Object.fromEntries(
            Object.entries(definition.relationships).map(([name, target]) => [
              name,
              target.many ? 'many' : 'one',
            ]),
          ),
        },
  );
  // Every route to its records names their organisation: none is looked for by its id alone.
  if (declaration.itemPath?.includes('{org_id}') && !declaration.foundById) declareFoundInOrganisation(type);
  declaredTypes.set(type, definition);
  return definition;
};

/** The five plain operations, all served by the generic handlers. */
export const CRUD = { list: true, get: true, create: true, update: true, delete: true } as const;
