/**
 * A declaration's write rules go into a closed set of moments (`prepare`, `keep`, `guardDelete`): the
 * options they replaced, one hook per need, no longer compile. The proof is the compiler's: `npm test`
 * typechecks this file, and each `@ts-expect-error` fails the typecheck if its key were accepted again.
 */
import { describe, expect, it } from 'vitest';
import type { WritesDeclaration } from '#shared/engine/declaration';
import { defineResource } from '#shared/engine/resource-definition';

/** Never called: a declaration made would register its type. */
const declarationsWith = () => [
  defineResource({
    type: 'x',
    relationships: {},
    // @ts-expect-error `author` is `prepare: authored`
    writes: () => ({ attributes: {}, author: true }),
  }),
  defineResource({
    type: 'x',
    relationships: {},
    // @ts-expect-error `idOf` is part of `prepare` (it answers the record with its derived id)
    writes: () => ({ attributes: {}, idOf: () => 'id' }),
  }),
  defineResource({
    type: 'x',
    relationships: {},
    // @ts-expect-error `validate` is `prepare` (a broken rule throws)
    writes: () => ({ attributes: {}, validate: () => {} }),
  }),
  defineResource({
    type: 'x',
    relationships: {},
    // @ts-expect-error `upkeep` is `keep`
    writes: () => ({ attributes: {}, upkeep: () => ({}) }),
  }),
  defineResource({
    type: 'x',
    relationships: {},
    // @ts-expect-error `listedOn` is `keep: listedOn(relationship, as)`
    writes: () => ({ attributes: {}, listedOn: {} }),
  }),
  defineResource({
    type: 'x',
    relationships: {},
    // @ts-expect-error `inUse` is `guardDelete`
    writes: () => ({ attributes: {}, inUse: () => undefined }),
  }),
  // The moments themselves compile.
  defineResource({
    type: 'x',
    relationships: {},
    writes: () => ({
      attributes: {},
      prepare: (record) => record,
      keep: () => ({}),
      guardDelete: () => undefined,
    }),
  }),
];

describe('write moments: a closed set', () => {
  it('the writes take the schema, the unique attribute and three moments, nothing else', () => {
    const options: Record<keyof WritesDeclaration, true> = {
      attributes: true,
      relationships: true,
      unique: true,
      prepare: true,
      keep: true,
      guardDelete: true,
    };
    expect(Object.keys(options)).toHaveLength(6);
    expect(declarationsWith).toBeTypeOf('function');
  });
});
