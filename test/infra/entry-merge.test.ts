/**
 * How a route's chunk is rewritten once the chunks the entry imports statically are merged into the entry
 * (infra/entry-merge.ts): esbuild writes a chunk's imports first, in two forms; the rewrite takes the names
 * it uses of a merged chunk from the entry, and refuses, failing the build, any other mention of one (a
 * dynamic `import()` of it, or a name it does not export), which would otherwise ship an import of a file
 * that is no longer there.
 */
import { describe, expect, it } from 'vitest';
import { importingFromEntry } from '../../infra/entry-merge';
import { nodeBundle } from '../../infra/node-bundle';

const banner = nodeBundle.banner.js;
const entry = '/bundle/index.mjs';
const chunk = '/bundle/chunks/route-AAAA.mjs';
/** Two chunks merged into the entry, each export with the name the entry re-exports it under. */
const aliases = new Map([
  ['/bundle/chunks/chunk-MERGED1.mjs', new Map([['a', 'q']])],
  ['/bundle/chunks/chunk-MERGED2.mjs', new Map([['b', 'r']])],
]);

describe("a route's chunk takes what it imported of the merged chunks from the entry", () => {
  it('named imports become one import of the entry under its names, side-effect imports go, others stay', () => {
    const source = `${banner}\nimport{a as x}from"./chunk-MERGED1.mjs";import"./chunk-MERGED2.mjs";import{c}from"./chunk-OTHER.mjs";var h=x(c);export{h as handler};`;
    expect(importingFromEntry(source, chunk, entry, aliases)).toBe(
      `${banner}import{q as x}from"../index.mjs";import{c}from"./chunk-OTHER.mjs";var h=x(c);export{h as handler};`,
    );
  });

  it('a merged chunk named outside the imports at its head fails the build', () => {
    const source = `${banner}\nimport{c}from"./chunk-OTHER.mjs";var l=()=>import("./chunk-MERGED1.mjs");`;
    expect(() => importingFromEntry(source, chunk, entry, aliases)).toThrow(/chunk-MERGED1\.mjs outside/);
  });

  it('a name the merged chunk does not export fails the build', () => {
    const source = `${banner}\nimport{z as x}from"./chunk-MERGED1.mjs";x();`;
    expect(() => importingFromEntry(source, chunk, entry, aliases)).toThrow(/exports no z/);
  });
});
