/**
 * The floor plan, as import rules biome cannot express: the layers under the areas (the engine, the
 * middy stack, JSON:API, auth, data) import nothing from the composition root (`shared/routes.ts`) or an
 * area (`functions/<area>/`), and each imports only the layers below it; an area uses another only through its declarations; and no file of
 * `shared/` or `functions/` imports itself back round a circle. (The pure-rules fences are biome's:
 * `test/unit/lint-fences.test.ts`.) A circle through the route table once passed every API test under tsx and threw
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

/** What those layers must not import: the composition root, an area. */
const aboveThem = (file: string) => file === 'shared/routes.ts' || file.startsWith('functions/');

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
  it('shared/engine, http, jsonapi, auth and data import nothing from shared/routes.ts or an area (functions/)', () => {
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
      importsUp(withImport('shared/data/scope.ts', "import { users } from '#functions/people/users';")),
    ).toEqual(['shared/data/scope.ts:1 imports functions/people/users.ts']);
  });

  it('the rule fails on a function imported by the middy stack', () => {
    expect(
      importsUp(
        withImport('shared/http/reply.ts', "import { handler } from '../../functions/status/get-status';"),
      ),
    ).toEqual(['shared/http/reply.ts:1 imports functions/status/get-status.ts']);
  });
});

/**
 * The floors of shared/, top down: each imports only floors below it (or its own). The composition root
 * assembles everything; the engine builds on the middy stack; the stack on auth; auth on JSON:API's
 * errors; JSON:API on the data layer's query terms; everything on the pure rules and the configuration.
 */
const FLOORS = [
  /^shared\/routes\.ts$/,
  /^shared\/engine\//,
  /^shared\/http\//,
  /^shared\/auth\//,
  /^shared\/jsonapi\//,
  /^shared\/data\//,
  /^shared\/(domain\/|config\.ts$|route-matcher\.ts$)/,
];
const floorOf = (file: string) => FLOORS.findIndex((floor) => floor.test(file));

/** Every import from a floor of shared/ to one above it. */
const importsUpAFloor = (sources?: Sources): string[] =>
  FILES.filter((file) => floorOf(file) >= 0).flatMap((file) =>
    importsOf(file, sources?.get(file))
      .filter(({ target }) => floorOf(target) >= 0 && floorOf(target) < floorOf(file))
      .map(({ target, line }) => `${file}:${line} imports ${target}`),
  );

describe('the floors of shared/ import only down', () => {
  it('routes.ts > engine > http > auth > jsonapi > data > domain and configuration: no import runs up', () => {
    expect(FILES.filter((file) => file.startsWith('shared/') && floorOf(file) < 0)).toEqual([]);
    expect(importsUpAFloor()).toEqual([]);
  });

  it('the rule fails on the data layer importing JSON:API (the default page size it once read there)', () => {
    const broken = withImport(
      'shared/data/organisation-settings.ts',
      "import '../jsonapi/collection-query';",
    );
    expect(importsUpAFloor(broken)).toEqual([
      'shared/data/organisation-settings.ts:1 imports shared/jsonapi/collection-query.ts',
    ]);
  });

  it('the rule fails on JSON:API importing the middy stack (the route table links once read there)', () => {
    const broken = withImport(
      'shared/jsonapi/document.ts',
      "import type { RouteId } from '../http/route-table';",
    );
    expect(importsUpAFloor(broken)).toEqual([
      'shared/jsonapi/document.ts:1 imports shared/http/route-table.ts',
    ]);
  });
});

const areaOf = (file: string) => /^functions\/([^/]+)\//.exec(file)?.[1];

/** An area's declarations: the modules that declare its resource types, which other areas may name. */
const declares = (file: string, sources?: Sources) =>
  /\bdefineResource\(/.test(sources?.get(file) ?? readFileSync(join(REPOSITORY, file), 'utf8'));

/**
 * What an area still reaches in another beyond its declarations, as measured when the areas moved into
 * `functions/<area>/` (issue 40): the identity areas' shared sign-in and joining steps, pure rules read
 * by a neighbour and the job worker two areas create their jobs with. The list may only
 * shrink: a new entry is an import against the plan.
 */
const REACHED_TODAY = new Set([
  'auth → functions/iam/grant-writes.ts',
  'auth → functions/iam/rules/sso-domains.ts',
  'auth → functions/iam/sso-providers.ts',
  'auth → functions/people/invitation-writes.ts',
  'auth → functions/people/joining.ts',
  'auth → functions/people/rules/invitation.ts',
  'people → functions/auth/signed-in.ts',
  'people → functions/auth/signed-in-reply.ts',
  'people → functions/iam/grant-writes.ts',
  'people → functions/qualifications/compliance.ts',
  'site-attendances → functions/qualifications/person-awards.ts',
  'site-attendances → functions/qualifications/rules/awards.ts',
  'site-attendances → functions/qualifications/rules/rules.ts',
  'exports → functions/costs/roll-ups.ts',
  'exports → functions/jobs/worker.ts',
  'places → functions/jobs/worker.ts',
  'webhooks → functions/events/feed.ts',
]);

/** Each import from one area into another that names more than the other's declarations. */
const reachesIn = (sources?: Sources): string[] =>
  FILES.flatMap((file) => {
    const area = areaOf(file);
    if (!area) return [];
    return importsOf(file, sources?.get(file))
      .filter(({ target }) => {
        const other = areaOf(target);
        return other !== undefined && other !== area && !declares(target, sources);
      })
      .map(({ target }) => `${area} → ${target}`);
  });

describe('an area uses another only through its declarations', () => {
  it('every import into another area names its declarations (or is on the shrinking list of today)', () => {
    expect([...new Set(reachesIn())].filter((reach) => !REACHED_TODAY.has(reach))).toEqual([]);
  });

  it('the list of today holds nothing the code no longer does', () => {
    const reached = new Set(reachesIn());
    expect([...REACHED_TODAY].filter((reach) => !reached.has(reach))).toEqual([]);
  });

  it("the rule fails on an area importing another's write module", () => {
    const broken = withImport(
      'functions/costs/sheets.ts',
      "import { signIn } from '#functions/site-attendances/sign-in-writes';",
    );
    expect(reachesIn(broken).filter((reach) => !REACHED_TODAY.has(reach))).toEqual([
      'costs → functions/site-attendances/sign-in-writes.ts',
    ]);
  });

  it("the rule lets an area name another's declarations", () => {
    const declared = withImport(
      'functions/costs/sheets.ts',
      "import { users } from '#functions/people/users';",
    );
    expect(reachesIn(declared).filter((reach) => !REACHED_TODAY.has(reach))).toEqual([]);
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

/** An area's bench seeds: the routes bench loads them by name (test/bench/seed-routes.ts); nothing else may. */
const BENCH_SEEDS = /^functions\/[^/]+\/(bench-seeds|examples)\.ts$/;

/**
 * Every import of an area's bench seeds or request examples by a module of the service (shared/,
 * functions/, infra/): they are found by name (`infra/area-modules.ts`), so no bundle holds them.
 */
const benchSeedsImported = (sources?: Sources): string[] =>
  [...FILES, ...sourceFiles('infra')].flatMap((file) =>
    importsOf(file, sources?.get(file))
      .filter(({ target }) => BENCH_SEEDS.test(target))
      .map(({ target, line }) => `${file}:${line} imports ${target}`),
  );

describe("an area's bench seeds and request examples stay out of the service", () => {
  it('no module of shared/, functions/ or infra/ imports a functions/<area>/bench-seeds.ts or examples.ts (so no bundle holds one)', () => {
    expect(FILES.filter((file) => BENCH_SEEDS.test(file)).length).toBeGreaterThan(0);
    expect(benchSeedsImported()).toEqual([]);
  });

  it("the rule fails on an area's manifest naming its bench seeds or its examples", () => {
    const broken = withImport('functions/agents/area.ts', "import { benchSeeds } from './bench-seeds';");
    expect(benchSeedsImported(broken)).toEqual([
      'functions/agents/area.ts:1 imports functions/agents/bench-seeds.ts',
    ]);
    const named = withImport('functions/people/area.ts', "import { examples } from './examples';");
    expect(benchSeedsImported(named)).toEqual([
      'functions/people/area.ts:1 imports functions/people/examples.ts',
    ]);
  });
});
