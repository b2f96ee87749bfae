/**
 * The JSON:API 1.1 shapes every operation of the document refers to: the error document, resource
 * identifiers, a resource object of one declared type, and the collection meta. Resource objects are
 * built from the declarations (type, relationships and their target types); their attributes from the
 * zod schemas the writes accept, and what the server sets from the declaration's `served` attributes.
 */
import type { SchemaObject } from 'openapi3-ts/oas31';
import type { RelationshipDefinition } from '#shared/engine/declaration';

export const ref = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` });

const uri: SchemaObject = { type: 'string', format: 'uri' };

/** The shapes named once under `components.schemas`. */
export const envelopeSchemas: Record<string, SchemaObject> = {
  JsonApi: {
    type: 'object',
    properties: { version: { const: '1.1' } },
    required: ['version'],
    additionalProperties: false,
  },
  ErrorObject: {
    type: 'object',
    description: 'One problem. `source` points at the member, parameter or header at fault.',
    properties: {
      id: { type: 'string', format: 'uuid', description: 'Unique per error.' },
      status: { type: 'string', pattern: '^[1-5][0-9]{2}$', description: 'The HTTP status code.' },
      title: { type: 'string' },
      code: { type: 'string', examples: ['AUTH.001', 'AUTH.002', 'NOT_FOUND.001', 'CONFLICT.001'] },
      detail: { type: 'string' },
      source: {
        type: 'object',
        properties: {
          pointer: { type: 'string', description: 'A JSON Pointer (RFC 6901) into the request document.' },
          parameter: { type: 'string', description: 'The query or path parameter at fault.' },
          header: { type: 'string', description: 'The request header at fault.' },
        },
        additionalProperties: false,
      },
      meta: { type: 'object' },
    },
    required: ['id', 'status', 'title'],
    additionalProperties: false,
  },
  ErrorDocument: {
    type: 'object',
    properties: {
      jsonapi: ref('JsonApi'),
      errors: { type: 'array', items: ref('ErrorObject'), minItems: 1 },
    },
    required: ['jsonapi', 'errors'],
    additionalProperties: false,
  },
  ResourceLinks: {
    type: 'object',
    properties: { self: uri },
    required: ['self'],
    additionalProperties: false,
  },
  DocumentLinks: {
    type: 'object',
    description:
      "Links about the whole document: `self` is the URL that produced it (a GET's own URL; a write's record's URL).",
    properties: { self: uri },
    required: ['self'],
    additionalProperties: false,
  },
  PaginationLinks: {
    type: 'object',
    description: 'Links to pages of the same query; `prev` and `next` are null at the ends.',
    properties: {
      self: uri,
      first: uri,
      last: uri,
      prev: { oneOf: [uri, { type: 'null' }] },
      next: { oneOf: [uri, { type: 'null' }] },
    },
    required: ['self', 'first', 'prev', 'next', 'last'],
    additionalProperties: false,
  },
  CursorLinks: {
    type: 'object',
    description:
      'A feed read with a cursor: `next` is the same query after the last item read; follow it to resume (an empty page means caught up, for now).',
    properties: { self: uri, next: uri },
    required: ['self', 'next'],
    additionalProperties: false,
  },
  CursorPageLinks: {
    type: 'object',
    description:
      'A page read by cursor (`page[cursor]`): `first` starts again, `next` reads on after this page (null after a short last page).',
    properties: { self: uri, first: uri, next: { oneOf: [uri, { type: 'null' }] } },
    required: ['self', 'first', 'next'],
    additionalProperties: false,
  },
  CursorPagination: {
    type: 'object',
    description:
      'A page read by cursor: what was asked, and the number of resources where known without reading them all (not for a filtered collection).',
    properties: {
      requested: {
        type: 'object',
        properties: { limit: { type: 'integer', minimum: 1 }, cursor: { type: 'string' } },
        required: ['limit', 'cursor'],
        additionalProperties: false,
      },
      counts: {
        type: 'object',
        properties: { resources: { type: 'integer', minimum: 0 } },
        required: ['resources'],
        additionalProperties: false,
      },
    },
    required: ['requested'],
    additionalProperties: false,
  },
  Pagination: {
    type: 'object',
    properties: {
      current_page: { type: 'integer', minimum: 1 },
      counts: {
        type: 'object',
        properties: {
          pages: { type: 'integer', minimum: 0 },
          resources: { type: 'integer', minimum: 0 },
        },
        required: ['pages', 'resources'],
        additionalProperties: false,
      },
      requested: {
        type: 'object',
        properties: { limit: { type: 'integer', minimum: 1 }, offset: { type: 'integer', minimum: 0 } },
        required: ['limit', 'offset'],
        additionalProperties: false,
      },
      offsets: {
        type: 'object',
        properties: {
          previous: { type: ['integer', 'null'], minimum: 0 },
          next: { type: ['integer', 'null'], minimum: 0 },
        },
        required: ['previous', 'next'],
        additionalProperties: false,
      },
    },
    required: ['current_page', 'counts', 'requested', 'offsets'],
    additionalProperties: false,
  },
  FeatureOptions: {
    type: 'object',
    properties: { options: { type: 'array', items: { type: 'string' } } },
    required: ['options'],
    additionalProperties: false,
  },
  FilterFeatureOptions: {
    type: 'object',
    properties: {
      options: { type: 'array', items: { type: 'string' } },
      indexed: {
        type: 'array',
        items: { type: 'string' },
        description:
          'The filters read through an index, alone or together, at any collection size; the other options are taken only beside one of these. Absent where no filter is indexed.',
      },
    },
    required: ['options'],
    additionalProperties: false,
  },
  Features: {
    type: 'object',
    description: 'The filter, include and sort names this collection accepts.',
    properties: {
      params: {
        type: 'object',
        properties: {
          filter: ref('FilterFeatureOptions'),
          ...Object.fromEntries(['include', 'sort'].map((name) => [name, ref('FeatureOptions')])),
        },
        required: ['filter', 'include', 'sort'],
        additionalProperties: false,
      },
      include: {
        ...ref('FeatureOptions'),
        description:
          'The include options again, equal to `params.include`: the shape the spec’s cost-rollups and sso-providers sections name.',
      },
    },
    required: ['params', 'include'],
    additionalProperties: false,
  },
  CollectionMeta: {
    type: 'object',
    properties: {
      pagination: { oneOf: [ref('Pagination'), ref('CursorPagination')] },
      features: ref('Features'),
    },
    required: ['pagination', 'features'],
  },
};

const nullable = (schema: SchemaObject): SchemaObject => ({ oneOf: [schema, { type: 'null' }] });

const relationshipSchema = (data: SchemaObject): SchemaObject => ({
  type: 'object',
  properties: { data },
  required: ['data'],
  additionalProperties: false,
});

/** `{type, id}` of one of the types, any when none is named (with the `meta` a relationship may carry, such as an allocation's). */
export const identifierSchema = (types: readonly string[]): SchemaObject => ({
  type: 'object',
  properties: {
    type:
      types.length === 0
        ? { type: 'string' }
        : types.length === 1
          ? { const: types[0] }
          : { enum: [...types] },
    id: { type: 'string' },
    meta: { type: 'object' },
  },
  required: ['type', 'id'],
  additionalProperties: false,
});

export interface ResourceShape {
  type: string;
  attributes: SchemaObject;
  /** Undefined for a type no declaration describes (whoami, a key): any relationships. */
  relationships: Record<string, RelationshipDefinition> | undefined;
  /** Whether records of the type have a URL of their own (`links.self`). */
  linked: boolean;
  /** What its `meta` is known to carry (a stateful type's `allowed_transitions`); any object otherwise. */
  meta?: SchemaObject;
}

export const resourceSchema = ({
  type,
  attributes,
  relationships,
  linked,
  meta = { type: 'object' },
}: ResourceShape): SchemaObject => ({
  type: 'object',
  properties: {
    type: { const: type },
    id: { type: 'string' },
    attributes,
    relationships: {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(relationships ?? {}).map(([name, target]) => [
          name,
          relationshipSchema(
            target.types
              ? // A polymorphic link: one identifier schema per type it may name, told apart by `type`.
                nullable({ oneOf: target.types.map((type) => identifierSchema([type])) })
              : target.many
                ? { type: 'array', items: identifierSchema([target.type]) }
                : nullable(identifierSchema([target.type])),
          ),
        ]),
      ),
      additionalProperties: relationships
        ? false
        : relationshipSchema({
            oneOf: [{ type: 'array', items: identifierSchema([]) }, nullable(identifierSchema([]))],
          }),
    },
    meta,
    links: ref('ResourceLinks'),
  },
  required: ['type', 'id', 'attributes', 'relationships', 'meta', ...(linked ? ['links'] : [])],
  additionalProperties: false,
});

/** One of the named resource schemas, told apart by `type`. */
export const anyOf = (names: readonly string[]): SchemaObject =>
  names.length === 1 ? ref(names[0] ?? '') : { oneOf: names.map(ref) };
