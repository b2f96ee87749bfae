/**
 * One declaration per resource type: its type name, paths, permission family, relationships, collection
 * options, write schema, read attributes and endpoints. The area's routes, the generic handlers, the
 * serialiser's links, the include resolver, `meta.features` and the OpenAPI document all read from here
 * (see `shared/engine/area.ts`).
 */
import type * as z from 'zod';
import type { FilterClause } from '../data/collection-query';
import { declareEvents, LIFECYCLE_ACTIONS } from '../data/events';
import type { Scope } from '../data/scope';
import type { ItemKey, StoredResource } from '../data/stored-resource';
import { resourceKey } from '../data/stored-resource';
import type { Permission } from '../domain/iam/permissions';
import { fillPath, parameterNames } from '../http/path-template';
import type { Answer, Operation, RouteAccess } from '../http/route';
import type { CollectionOptions } from '../jsonapi/collection-query';
import { toResourceObject } from './serialise';
import type { CrudOptions, UniqueAttribute } from './simple-crud';

export interface RelationshipDefinition {
  type: string;
  many?: true;
}

/**
 * How one operation is served: `true` for the generic handler, or a bespoke handler module (relative to
 * the repository root, exporting `handler`), with the route's settings where they differ from the
 * resource's (a permission of another family, bucket access, the query parameters a handler reads).
 */
export type EndpointDeclaration =
  | true
  | string
  | {
      handler?: string;
      /** A path other than the declared one (properties are created in an organisation, listed across them). */
      path?: string;
      permission?: Permission | 'authenticated';
      /** A permission that also allows the route on the caller's own record (`users:self`): see `Route.self`. */
      self?: Permission;
      access?: RouteAccess;
      query?: readonly string[];
      /** What it answers where the operation's answer is not it (a create that answers 200). */
      answers?: Answer;
    };

/** What the generic create / update / delete accept: `required` attributes must be sent on create. */
export interface WritesDeclaration extends CrudOptions {
  attributes: z.ZodRawShape;
  /** Relationships a client may set (each checked to name a record of the organisation). */
  relationships?: readonly string[];
  unique?: UniqueAttribute;
}

/** Permission families: the catalogue's `<family>:view` permissions (writes need `<family>:manage`). */
export type PermissionFamily = FamilyOf<Permission>;
type FamilyOf<P> = P extends `${infer Family}:view` ? Family : never;

export interface ResourceDeclaration {
  type: string;
  /** Route ids are `list<many>`, `get<one>`, `create<one>`, `update<one>` and `delete<one>`. */
  names?: { one: string; many: string };
  /** The collection's path: list (GET) and create (POST). */
  collectionPath?: string;
  /** A record's path: get, update (PATCH) and delete; also each record's `links.self` and `Location`. */
  itemPath?: string;
  /** The spec's resource area, when not the area's own (vehicles in the assets area are `Vehicles`). */
  tag?: string;
  /** `assets` makes reads `assets:view` and writes `assets:manage`; an endpoint may name its own. */
  permission?: PermissionFamily;
  endpoints?: Partial<Record<Operation, EndpointDeclaration>>;
  /** Built on the first write, so a cold start builds no schema it does not use. */
  writes?: () => WritesDeclaration;
  /**
   * The attributes answers carry beyond what the writes accept: those the server sets (a status, counts,
   * dates it fills), those it serves otherwise than a write takes them, and every attribute of a type
   * with no declared writes. An attribute an answer may lack is `.optional()`; one it may answer null is
   * `.nullable()`. With the writes' attributes (as stored) it is the type's read shape, documented closed
   * (`read-attributes.ts`); built only when the document is.
   */
  served?: () => z.ZodRawShape;
  relationships: Record<string, RelationshipDefinition>;
  /** Where a record of this type is stored, given the organisation it is read in. */
  keyOf?: (orgId: string, id: string) => ItemKey;
  /** The path of records that have no page of their own but a link elsewhere (see `iam-permissions`). */
  selfPath?: (resource: StoredResource) => string;
  collection?: CollectionOptions;
  /**
   * A child filed on `gsi1` under its parent (children.ts): the sorts its partition's key order serves, the
   * first naming what its key is built from: `created_at` (the default) keys it by id, which also serves
   * fields that increase with creation (a document version's number); another field keys it by that
   * field's case-folded value, then id (a folder's documents by name).
   */
  childSorts?: readonly string[];
  /**
   * A sparse `gsi1` partition holding exactly the records some filters select (the attendances open on one
   * site): given a read's filters in one organisation, its `gsi1pk`, or null when the filters are not
   * those. Lists and exports with those filters Query it, whatever the size of the type's history.
   */
  sparseIndex?: (orgId: string, filters: readonly FilterClause[]) => string | null;
  /** A point field (`{latitude, longitude}`) indexed by geohash on `gsi1`, so box filters read only nearby records. */
  geoIndex?: { path: string };
  /** Adds meta derived from other records (a scheme's counts) to records about to be answered with. */
  derive?: (scope: Scope, items: StoredResource[]) => Promise<StoredResource[]>;
  /**
   * The records `derive` reads for one record, by key (a scheme's progress): a GET of the record reads
   * them with the caller's credentials, in the same round trip. Derivations that Query (a folder's
   * subtree) name none.
   */
  derivedKeys?: (orgId: string, id: string) => ItemKey[];
  /**
   * The domain actions its writes name besides created, updated and deleted (`allocated` makes
   * `vehicle.allocated`); false for records whose changes are not events (internal state, audit entries).
   */
  events?: readonly string[] | false;
}

export type ResourceDefinition = Omit<ResourceDeclaration, 'keyOf' | 'selfPath'> & {
  keyOf: (orgId: string, id: string) => ItemKey;
  /** Path of the record's own URL, for `links.self` and `Location`; null for records never linked to. */
  selfPath: ((resource: StoredResource) => string) | null;
};

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

export const defineResource = <const Declaration extends ResourceDeclaration>(
  declaration: Declaration,
): Declaration & Pick<ResourceDefinition, 'keyOf' | 'selfPath'> => {
  const definition = {
    keyOf: (orgId: string, id: string) => resourceKey(orgId, declaration.type, id),
    ...declaration,
    selfPath: declaration.selfPath ?? (declaration.itemPath ? recordPath(declaration.itemPath) : null),
  };
  const { events = [], names, type } = declaration;
  declareEvents(
    type,
    events === false
      ? null
      : {
          name: kebab(names?.one ?? type),
          actions: [...LIFECYCLE_ACTIONS, ...events],
          present: (record) => {
            const { links: _links, ...resource } = toResourceObject(definition, record, '');
            return resource;
          },
        },
  );
  declaredTypes.set(type, definition);
  return definition;
};

/** The five plain operations, all served by the generic handlers. */
export const CRUD = { list: true, get: true, create: true, update: true, delete: true } as const;

export const createdAtSort = { created_at: { path: 'meta.created_at' } } as const;
