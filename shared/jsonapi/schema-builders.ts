/**
 * What declarations build their write and served schemas with: zod's builders and the house's attribute
 * and served types, in one module a declaration loads through `import()` when a write (or the OpenAPI
 * document) first needs its schemas. So a read's cold start loads no zod at all (about 100 KB of its code).
 */
import {
  array,
  boolean,
  enum as enumOf,
  iso,
  lazy,
  literal,
  number,
  record,
  strictObject,
  string,
  union,
  uuid,
} from 'zod';

export * from './attribute-types';
export * from './served-types';

/**
 * zod's builders the declarations use, by name: what a module loaded by `import()` exports is kept whole,
 * and all of zod (about 460 KB with its locales and JSON Schema code) is four times what these reach.
 */
export const z = {
  array,
  boolean,
  enum: enumOf,
  iso,
  lazy,
  literal,
  number,
  record,
  strictObject,
  string,
  union,
  uuid,
};

/** The builders, loaded on first use: `writes: async () => { const { z } = await loadSchemaBuilders(); … }`. */
export type SchemaBuilders = typeof import('./schema-builders');
