/**
 * The floor plan, as import rules biome cannot express: the layers under the areas (the engine, the
 * middy stack, JSON:API, auth, data) import nothing from the composition root (`shared/routes.ts`), an
 * area (`shared/resources/<area>/`) or a function; and no file of `shared/` or `functions/` imports itself
 * back round a circle. A circle through the route table once passed every API test under tsx and threw
 * when bundled (the site-attendances function, commit 708087e): a bundle evaluates a circle in another
 * order than Node does. Each rule is also run on a copy of the sources with the import it forbids put
 * back, and must fail there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  circlePath,
  importCircles,
  importGraph,
  importsOf,
  REPOSITORY,
  sourceFiles,
} from '../support/import-graph';

const FILES = sourceFiles('shared', 'functions');

/** The layers that know no area. */
const UNDER_THE_AREAS = /^shared\/(engine|http|jsonapi|auth|data)\//;

/** What those layers must not import: the composition root, an area, a function. */
const aboveThem = (file: string) =>
  file === 'shared/routes.ts' || file.startsWith('shared/resources/') || file.startsWith('functions/');

type Sources = ReadonlyMap<string, string>;

/** Every import (types included: a type read from the route table ties a layer to every area) that points up. */
const importsUp = (sources?: Sources): string[] =>
  FILES.filter((file) => UNDER_THE_AREAS.test(file)).flatMap((file) =>
    importsOf(file, sources?.get(file))
      .filter(({ target }) => aboveThem(target))
      .map(({ target, line }) => `${file}:${line} imports ${target}`),
  );

/**
 * Circles of imports of every kind (`import`, `import type`, `export … from`, `import()`). A type-only
 * import is erased before anything runs, so only the others can change what a bundle evaluates first; but
 * a type-only circle still ties two layers together (the declaration types and the route table), so none
 * is allowed either: types shared by two modules live in a module of types below both.
 */
const runtimeCircles = (sources?: Sources): string[] => {
  const graph = importGraph(FILES, ['static', 'type', 'dynamic'], sources);
  return importCircles(graph).map((circle) => circlePath(graph, circle).join(' → '));
};

/** The sources with one line added at the top of one file. */
const withImport = (file: string, line: string): Sources =>
  new Map([[file, `${line}\n${readFileSync(join(REPOSITORY, file), 'utf8')}`]]);

describe('the engine and the layers under it know no area', () => {
  it('shared/engine, http, jsonapi, auth and data import nothing from shared/routes.ts, an area or a function', () => {
    expect(importsUp()).toEqual([]);
  });

  it('the rule fails on an engine file reading the route table (the import that made the circle)', () => {
    const broken = withImport('shared/engine/includes.ts', "import { resourceTypes } from '../routes';");
    expect(importsUp(broken)).toEqual([
      expect.stringMatching(/^shared\/engine\/includes\.ts:1 imports shared\/routes\.ts$/),
    ]);
  });

  it('the rule fails on a type-only import of the route table, and on an area imported by #shared alias', () => {
    expect(
      importsUp(
        withImport('shared/http/middlewares/negotiate.ts', "import type { Route } from '../../routes';"),
      ),
    ).toEqual(['shared/http/middlewares/negotiate.ts:1 imports shared/routes.ts']);
    expect(
      importsUp(
        withImport('shared/data/scope.ts', "import { users } from '#shared/resources/people/users';"),
      ),
    ).toEqual(['shared/data/scope.ts:1 imports shared/resources/people/users.ts']);
  });

  it('the rule fails on a function imported by the middy stack', () => {
    expect(
      importsUp(
        withImport('shared/http/reply.ts', "import { handler } from '../../functions/status/get-status';"),
      ),
    ).toEqual(['shared/http/reply.ts:1 imports functions/status/get-status.ts']);
  });
});

describe('no import circle', () => {
  it('no file of shared/ or functions/ imports itself back round a circle', () => {
    expect(runtimeCircles()).toEqual([]);
  });

  it('the rule fails on the circle that broke the site-attendances bundle (record writes reading the route table)', () => {
    const circles = runtimeCircles(
      withImport('shared/engine/record-writes.ts', "import { resourceTypes } from '../routes';"),
    );
    expect(circles).toHaveLength(1);
    expect(circles[0]).toMatch(/^(?=.*shared\/routes\.ts)(?=.*shared\/engine\/record-writes\.ts)/);
  });

  it('the rule fails on a circle of two files of one layer', () => {
    const circles = runtimeCircles(withImport('shared/jsonapi/pointer.ts', "import './request-document';"));
    expect(circles.join('\n')).toContain('shared/jsonapi/pointer.ts');
  });

  it("the rule fails on a type-only circle (the route naming the engine's declaration type, which names route types)", () => {
    const circles = runtimeCircles(
      withImport('shared/http/route.ts', "import type { ResourceDefinition } from '../engine/declaration';"),
    );
    expect(circles.join('\n')).toMatch(
      /shared\/http\/route\.ts[\s\S]*shared\/engine\/declaration\.ts|shared\/engine\/declaration\.ts[\s\S]*shared\/http\/route\.ts/,
    );
  });
});
