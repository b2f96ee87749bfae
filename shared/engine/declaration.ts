/**
 * The shapes of a resource declaration, types only: what `defineResource` takes and what the engine, the
 * route table and the OpenAPI document read. Apart from the functions that build and use declarations, so
 * the modules that only name these types (the serialiser, the stored shape) import no machinery and no
 * module imports itself back round a circle.
 */
import type * as z from 'zod';
import type { Principal } from '../auth/principal';
import type { AccessPattern } from '../data/access-patterns';
import type { CollectionQuery, FilterClause, PageRead } from '../data/collection-query';
import type { Scope } from '../data/scope';
import type { ItemKey, StoredResource } from '../data/stored-resource';
import type { WriteOp } from '../data/transaction';
import type { PermissionName } from '../domain/permissions';
import type { Answer, Operation, RouteAccess } from '../http/route';
import type { CollectionOptions, FilterOption, SortOption } from '../jsonapi/collection-query';
import type { LifecycleDeclaration } from './lifecycle';

/** A write op that proves something a request named exists; refused, it is a 400 at `pointer`. */
export interface Check {
  op: WriteOp;
  pointer: string;
}

/**
 * An attribute unique within the organisation: a claim item (saying which record holds the value)
 * commits with the record, moves when the value changes and goes when the record does; a taken value
 * is 409 CONFLICT.001 at the attribute.
 */
export interface UniqueAttribute {
  attribute: string;
  /** The name of the declaration's key pattern for the claim (`{org_id}` and the attribute its parts). */
  claim: string;
}

/** What was there before a write, and who makes it: what `prepare` is given. */
export interface WriteMoment {
  /** The record as it was read: null on create. */
  before: StoredResource | null;
  /** The caller, on create (null there for the service's own writes, and on every update). */
  principal: Principal | null;
}

/** What a write maintains on other records, committed in its transaction. */
export interface Kept {
  ops?: WriteOp[];
  /** Ops that prove what the write names: each refused is a 400 at its pointer. */
  checks?: Check[];
}

/**
 * The moments of a declared type's generic writes, a closed set (as JsonApiDotNetCore's resource
 * definitions have a fixed lifecycle): a rule that fits none is a design question, not a new key.
 */
export interface WriteMoments {
  /**
   * Before a create or an update, on the record as it would be written: throws a ValidationError for a
   * rule across fields, and answers the record to write, with what the server derives (its id, one per
   * something such as a site's settings, so a second create is 409; its author, `authored`).
   */
  prepare?: (record: StoredResource, moment: WriteMoment) => StoredResource;
  /**
   * What other records keep of this one, moved in each write's transaction (`before` is null on create,
   * `after` on delete): counts on what it names (`countOnNamed`), index entries (an induction type's entry
   * under each site it covers), its place in a parent's list (`listedOn`, which reads the parent).
   */
  keep?: (before: StoredResource | null, after: StoredResource | null, scope: Scope) => Kept | Promise<Kept>;
  /**
   * Why the record may not be deleted yet (a job role someone holds), from the record as read: 409 with
   * this detail. What it reads must move the record's version, so the delete (conditional on the version
   * read) cannot pass a change made after the look.
   */
  guardDelete?: (record: StoredResource) => string | undefined;
}

/**
 * What a relationship points at: one type (`{type}`, to one or `many`), or one of several (`{types}`, to one:
 * a polymorphic `subject` or `assignee`), stored as `<type>:<id>` so the stored value alone names the record
 * (an equality filter and an index key read it as it is); see `relationship-targets.ts`.
 */
export type RelationshipDefinition =
  | { type: string; many?: true; types?: never }
  | { types: readonly [string, string, ...string[]]; type?: never; many?: never };

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
      permission?: PermissionName | 'authenticated';
      /** A permission that also allows the route on the caller's own record (`users:self`): see `Route.self`. */
      self?: PermissionName;
      /** A permission that also reaches the route for a record's party (`site-attendances:self`): see `Route.party`. */
      party?: PermissionName;
      access?: RouteAccess;
      query?: readonly string[];
      /** What it answers where the operation's answer is not it (a create that answers 200). */
      answers?: Answer;
    };

/** What the generic create / update / delete accept: `required` attributes must be sent on create. */
export interface WritesDeclaration extends WriteMoments {
  attributes: z.ZodRawShape;
  /** Relationships a client may set (each checked to name a record of the organisation). */
  relationships?: readonly string[];
  unique?: UniqueAttribute;
}

/**
 * A permission family: reads need `<family>:view`, writes `<family>:manage`; the composition root checks
 * at compile time that the permissions each endpoint needs are declared.
 */
export type PermissionFamily = string;

export interface ResourceDeclaration {
  type: string;
  /** Route ids are `list<many>`, `get<one>`, `create<one>`, `update<one>` and `delete<one>`. */
  names?: { one: string; many: string };
  /** The collection's path: list (GET) and create (POST). */
  collectionPath?: string;
  /** A record's path: get, update (PATCH) and delete; also each record's `links.self` and `Location`. */
  itemPath?: string;
  /**
   * Its id ends a route that names no organisation although its item path names one (an agent's
   * `/v3/agents/{agent_id}/briefings`): its records keep an id directory entry, as those of a type with a
   * bare item path do (`data/id-directory.ts`).
   */
  foundById?: true;
  /** The spec's resource area, when not the area's own (vehicles in the assets area are `Vehicles`). */
  tag?: string;
  /** `assets` makes reads `assets:view` and writes `assets:manage`; an endpoint may name its own. */
  permission?: PermissionFamily;
  endpoints?: Partial<Record<Operation, EndpointDeclaration>>;
  /**
   * Built on the first write, from schema builders loaded then (`() => import('#shared/jsonapi/schema-builders')`),
   * so a read's cold start neither loads zod nor builds a schema.
   */
  writes?: () => Promise<WritesDeclaration> | WritesDeclaration;
  /**
   * The attributes answers carry beyond what the writes accept: those the server sets (a status, counts,
   * dates it fills), those it serves otherwise than a write takes them, and every attribute of a type
   * with no declared writes. An attribute an answer may lack is `.optional()`; one it may answer null is
   * `.nullable()`. With the writes' attributes (as stored) it is the type's read shape, documented closed
   * (`read-attributes.ts`); built only when the document is, from builders loaded then, as the writes'.
   */
  served?: () => Promise<z.ZodRawShape> | z.ZodRawShape;
  /**
   * Beyond the house default (`organisation`, first: `house-defaults.ts`); `false` under a name opts out of
   * the default of that name.
   */
  relationships?: Record<string, RelationshipDefinition | false>;
  /**
   * The type's named access patterns beyond those the engine implies (see `keys.ts`): its unique claims,
   * the sparse or child index entries its records carry, the items its writes keep elsewhere. `record`
   * replaces the implied `ORG#{org_id}#<type>` / `{id}`.
   */
  keys?: Record<string, AccessPattern>;
  /** Where a record of this type is stored, given the organisation it is read in, when `keys.record` cannot say (a part computed). */
  keyOf?: (orgId: string, id: string) => ItemKey;
  /** The path of records that have no page of their own but a link elsewhere (see `iam-permissions`). */
  selfPath?: (resource: StoredResource) => string;
  /** The collection's options, with the house filter and sort (`created_at`) implied. */
  collection?: CollectionDeclaration;
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
  /**
   * A read with a `subtree` filter (`FilterOption.subtree`) in one organisation, from what lies under the
   * parent (its subtree on the tree index, or the children it lists); null when the read has none.
   */
  readSubtree?: (
    scope: Scope,
    orgId: string,
    query: CollectionQuery,
  ) => Promise<PageRead<StoredResource> | null>;
  /** A point field (`{latitude, longitude}`) indexed by geohash on `gsi1`, so box filters read only nearby records. */
  geoIndex?: { path: string };
  /** Adds meta derived from other records (a scheme's counts) to records about to be answered with. */
  derive?: (scope: Scope, items: StoredResource[]) => Promise<StoredResource[]>;
  /** Its stored attributes as answers and exports serve them, where it stores them more compactly (an audit entry's sides). */
  servedAttributes?: (attributes: StoredResource['attributes']) => StoredResource['attributes'];
  /**
   * The records `derive` reads for one record, by key (a scheme's progress): a GET of the record reads
   * them with the caller's credentials, in the same round trip. Derivations that Query (a folder's
   * subtree) name none.
   */
  derivedKeys?: (orgId: string, id: string) => ItemKey[];
  /**
   * Its state machine, if it has a life (`lifecycle.ts`): each transition becomes `POST <itemPath>/<verb>`
   * (the permission it names, else `<family>:manage`), its event an action of the type's, and single-record
   * answers carry the caller's `meta.allowed_transitions`.
   */
  lifecycle?: LifecycleDeclaration;
  /**
   * Whether the caller is one of the record's parties (an action's assignee, claimant, assigned team's
   * members and watchers), who read it through a route's `party` permission without the family's `:view`:
   * the generic GET answers them as it answers a viewer, and anyone else holding only the party permission
   * 404, as for a record outside their organisations.
   */
  readByParty?: (record: StoredResource, principal: Principal) => boolean;
  /**
   * The domain actions its writes name besides created, updated and deleted (`allocated` makes
   * `vehicle.allocated`); false for records whose changes are not events (internal state, audit entries).
   */
  events?: readonly string[] | false;
}

/** A collection's options as declared: the house filter and sort implied unless named (`false` refuses one). */
export type CollectionDeclaration = Omit<CollectionOptions, 'filters' | 'sorts'> & {
  filters?: Record<string, FilterOption | false>;
  sorts?: Record<string, SortOption | false>;
};

export type ResourceDefinition = Omit<
  ResourceDeclaration,
  'keyOf' | 'selfPath' | 'keys' | 'relationships' | 'collection'
> & {
  /** The relationships, the house default included. */
  relationships: Record<string, RelationshipDefinition>;
  collection?: CollectionOptions;
  /** Every access pattern of the type, the implied ones included: `record` always. */
  keys: Record<string, AccessPattern> & { record: AccessPattern };
  keyOf: (orgId: string, id: string) => ItemKey;
  /** Path of the record's own URL, for `links.self` and `Location`; null for records never linked to. */
  selfPath: ((resource: StoredResource) => string) | null;
};
