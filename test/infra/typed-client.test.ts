/**
 * Issue 39's "done when": a strict TypeScript client generated from docs/openapi.json (openapi-typescript)
 * reads every attribute of every resource type. The generated types and a file reading each attribute
 * (and checking that those the document requires are typed as present, and that no attribute is
 * `unknown` or undeclared) are compiled with the TypeScript compiler, strict; any diagnostic fails.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

interface Schema {
  properties?: Record<string, Schema>;
  required?: string[];
}

const source = resolve(import.meta.dirname, '../../docs/openapi.json');
const document = JSON.parse(readFileSync(source, 'utf8')) as {
  components: { schemas: Record<string, Schema> };
};
const resources = Object.entries(document.components.schemas).flatMap(([name, schema]) => {
  const attributes = schema.properties?.attributes;
  return attributes && schema.properties?.type ? [{ name, attributes }] : [];
});

/** Types whose attributes are empty by design (as test/infra/resource-schemas.test.ts says). */
const EMPTY_BY_DESIGN = new Set(['Grants']);

/** A client's reads: each attribute by name, typed (not `unknown`), present exactly when required. */
const readingFile = () =>
  [
    "import type { components } from './openapi';",
    "type Resource<N extends keyof components['schemas']> = components['schemas'][N];",
    'type Known<T> = unknown extends T ? false : true;',
    'type Present<T, K extends keyof T> = {} extends Pick<T, K> ? false : true;',
    'type NoValue<T> = [T[keyof T]] extends [never] ? true : false;',
    'type Named<T> = string extends keyof T ? false : [keyof T] extends [never] ? false : true;',
    ...resources.flatMap(({ name, attributes }, index) => {
      const required = new Set(attributes.required ?? []);
      const resource = `r${index}`;
      return [
        `declare const ${resource}: Resource<'${name}'>;`,
        ...Object.keys(attributes.properties ?? {}).flatMap((member, at) => {
          const read = `${resource}.attributes[${JSON.stringify(member)}]`;
          const type = `Resource<'${name}'>['attributes'][${JSON.stringify(member)}]`;
          return [
            `export const ${resource}_${at} = ${read};`,
            `export const ${resource}_${at}_known: Known<${type}> = true;`,
            `export const ${resource}_${at}_present: Present<Resource<'${name}'>['attributes'], ${JSON.stringify(member)}> = ${required.has(member)};`,
          ];
        }),
        ...(EMPTY_BY_DESIGN.has(name)
          ? // A grant is wholly its relationships: whatever is read from its attributes has no value.
            [`export const ${resource}_empty: NoValue<Resource<'${name}'>['attributes']> = true;`]
          : [
              // Named members, not an open record (a bare `object` is `Record<string, never>`: nothing to read).
              `export const ${resource}_named: Named<Resource<'${name}'>['attributes']> = true;`,
              // Closed: a member the document does not declare is no member of the type.
              `// @ts-expect-error ${name} declares no such attribute`,
              `export const ${resource}_undeclared = ${resource}.attributes.undeclared_member;`,
            ]),
      ];
    }),
  ].join('\n');

const directory = mkdtempSync(join(tmpdir(), 'typed-client-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('a strict generated TypeScript client', () => {
  it('reads every attribute of every resource type, typed, present when required, nothing undeclared', async () => {
    const generated = astToString(await openapiTS(new URL(`file://${source}`)));
    writeFileSync(join(directory, 'openapi.d.ts'), generated);
    writeFileSync(join(directory, 'reads.ts'), readingFile());
    const program = ts.createProgram([join(directory, 'reads.ts')], {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
      const line = d.file?.text.split('\n')[at] ?? '';
      return `${ts.flattenDiagnosticMessageText(d.messageText, '\n')} at: ${line}`;
    });
    expect(problems).toEqual([]);
    expect(resources.length).toBeGreaterThanOrEqual(71);
  }, 60_000);
});
