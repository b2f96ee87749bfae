/**
 * How an area function is built: an entry generated from the route table (its part of the table as
 * data, its manifest and the declarations of the types its routes need, registered first, then the area
 * router, with one static `import()` per route so esbuild knows every handler), bundled by esbuild with
 * code splitting, so each route's handler is its own chunk and a cold start loads only the chunks of the
 * route it serves; then the chunks the entry imports statically are merged into it (`./entry-merge`), so
 * a cold start reads one file before its route's chunks.
 * The stack and `npm run bench` both build with this.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import { eventCatalogue } from '#shared/data/events';
import { targetTypes } from '#shared/engine/relationship-targets';
import { viewPermissions } from '#shared/http/read-permissions';
import type { RouteData } from '#shared/http/served-table';
import {
  fallbackRoute,
  featureCatalogue,
  notificationRules,
  permissionCatalogue,
  type Route,
  resourceTypes,
  routes,
} from '#shared/routes';
import { typesOf } from './answered-types';
import { mergeEntryChunks, staticClosure } from './entry-merge';
import { gatewayMatch, gatewayRoutes } from './gateway-routes';
import { nodeBundle } from './node-bundle';
import { SPECIFICATION_FILES } from './openapi/files';
import { REPOSITORY_ROOT } from './repository';

/** The areas, each with its routes; every area also answers, through the fallback, paths it has not. */
export const areas = (): Map<string, Route[]> => {
  const byArea = new Map<string, Route[]>();
  for (const route of [...routes, fallbackRoute] as Route[]) {
    byArea.set(route.area, [...(byArea.get(route.area) ?? []), route]);
  }
  return byArea;
};

/** The routes' loaders: each route's handler module by a literal `import()`, so esbuild splits it off. */
const loadersOf = (areaRoutes: readonly Route[]) =>
  [...areaRoutes, fallbackRoute]
    .filter((route, i, all) => all.indexOf(route) === i)
    .map((route) => `  ${JSON.stringify(route.id)}: () => import(${JSON.stringify(`./${route.handler}`)}),`)
    .join('\n');

/**
 * What an area's routes may read of every declaration, each part as build-time data made here from the
 * composition root (as the route table is), and the module and function its entry registers it with.
 */
const EVERY_DECLARATION_PARTS = {
  /** Every event's name and types, and each type's relationship shape (a stored presentation's read). */
  events: { module: 'shared/data/events.ts', register: 'describeEveryEventSource', data: eventCatalogue },
  /** Each type's read permission: which events a caller may see, or subscribe a webhook to. */
  'read-permissions': {
    module: 'shared/http/read-permissions.ts',
    register: 'registerReadPermissions',
    data: () => [...viewPermissions()],
  },
  /** Every feature an organisation may switch off. */
  features: {
    module: 'shared/engine/feature-catalogue.ts',
    register: 'registerFeatureCatalogue',
    data: () => [...featureCatalogue],
  },
  /** Every area's notification rules, checked as the composition root loads (the rules routes, the consumer). */
  'notification-rules': {
    module: 'shared/engine/notification-rules.ts',
    register: 'registerNotificationRules',
    data: () => notificationRules,
  },
} as const;
type EveryDeclarationPart = keyof typeof EVERY_DECLARATION_PARTS;

/**
 * Areas whose routes read what every declaration declares, and which of it: every event's name (the feed,
 * webhook subscriptions), every type's relationship shape (the audit log's and the feed's records of any
 * type, stored without their empty ones), every type's read permission (the feed, webhooks), every
 * feature (the switches). Their entries carry it as data, not the composition root, which evaluates every
 * area's declarations. `eventNames()`, a stored presentation's read, `viewPermissions()` and
 * `featureCatalogue()` refuse where it was not registered, so a part missing here fails loudly, never
 * answers less.
 */
export const READS_EVERY_DECLARATION: ReadonlyMap<string, readonly EveryDeclarationPart[]> = new Map([
  ['audit', ['events']],
  ['events', ['events', 'read-permissions']],
  ['webhooks', ['events', 'read-permissions']],
  ['feature-configurations', ['features']],
  ['notifications', ['notification-rules']],
]);

/** The entry's lines registering what its area reads of every declaration (`READS_EVERY_DECLARATION`). */
const everyDeclarationLines = (area: string): string[] =>
  (READS_EVERY_DECLARATION.get(area) ?? []).flatMap((part) => {
    const { module, register, data } = EVERY_DECLARATION_PARTS[part];
    return [
      `import { ${register} } from './${module}';`,
      `${register}(JSON.parse(${JSON.stringify(JSON.stringify(data()))}));`,
    ];
  });

/** Each area's manifest module, by the name it declares (`defineArea('<name>', …)`). */
export const manifests = (() => {
  let found: Map<string, string> | undefined;
  return () => {
    found ??= new Map(
      readdirSync(resolve(REPOSITORY_ROOT, 'functions'), { withFileTypes: true, recursive: true })
        .filter((file) => file.isFile() && /(^|-)area\.ts$/.test(file.name))
        .flatMap((file) => {
          const path = relative(REPOSITORY_ROOT, resolve(file.parentPath, file.name));
          const name = /defineArea\('([^']+)'/.exec(
            readFileSync(resolve(REPOSITORY_ROOT, path), 'utf8'),
          )?.[1];
          return name ? [[name, path] as const] : [];
        }),
    );
    return found;
  };
})();

/**
 * The types whose declarations an area's routes need: those they answer or include, and every type those
 * link to, followed to the end (a write checks a link's target by its declaration; an include serialises
 * it).
 */
export const typesNeeded = (areaRoutes: readonly Route[]): Set<string> => {
  const types = new Set(areaRoutes.flatMap(typesOf));
  for (const type of types)
    for (const relationship of Object.values(resourceTypes.get(type)?.relationships ?? {}))
      for (const target of targetTypes(relationship)) types.add(target);
  return types;
};

/** The areas whose declarations an area's routes need: its own, and those serving the types it needs. */
export const declaringAreas = (area: string, areaRoutes: readonly Route[]): string[] => {
  const servedBy = new Map(
    routes.flatMap((route) => (route.declared ? [[route.declared.resource.type, route.area]] : [])),
  );
  const named = new Set([area, ...[...typesNeeded(areaRoutes)].flatMap((type) => servedBy.get(type) ?? [])]);
  return [...manifests().keys()].filter((name) => named.has(name)).sort();
};

/**
 * Each declared type's module, the one whose `defineResource({ type: … })` declares it (the type as a
 * literal, or a constant of that module), found in the sources as the manifests are.
 */
export const declarationModules = (() => {
  let found: Map<string, string> | undefined;
  return () => {
    found ??= new Map(
      readdirSync(resolve(REPOSITORY_ROOT, 'functions'), { withFileTypes: true, recursive: true })
        .filter((file) => file.isFile() && file.name.endsWith('.ts'))
        .flatMap((file) => {
          const path = relative(REPOSITORY_ROOT, resolve(file.parentPath, file.name));
          const source = readFileSync(resolve(REPOSITORY_ROOT, path), 'utf8');
          return source
            .split(/\bdefineResource\(\{/)
            .slice(1)
            .flatMap((declaration) => {
              const named = /^\s*type: (?:'([^']+)'|([A-Z_]+)),/.exec(declaration);
              const constant = named?.[2] && new RegExp(`const ${named[2]} = '([^']+)'`).exec(source)?.[1];
              const type = named?.[1] ?? constant;
              return type ? [[type, path] as const] : [];
            });
        }),
    );
    return found;
  };
})();

/**
 * The declaration modules an area's entry imports besides its manifest: those of the types it needs that
 * other areas serve, each alone, so a cold start evaluates the declarations it reads and not the rest of
 * those areas' (their manifests, their other types).
 */
export const declarationModulesOf = (area: string, areaRoutes: readonly Route[]): string[] => {
  const own = new Set(
    routes.flatMap((route) => (route.area === area && route.declared ? [route.declared.resource.type] : [])),
  );
  return [
    ...new Set(
      [...typesNeeded(areaRoutes)]
        .filter((type) => !own.has(type))
        .flatMap((type) => declarationModules().get(type) ?? []),
    ),
  ].sort();
};

/** The route table as the entry carries it (`RouteData`), in its order: the first match wins. */
export const routeData = (table: readonly Route[] = routes): RouteData[] =>
  table.map(({ id, method, path, area }) => [id, method, path, area]);

const segmentsOf = (path: string) => path.split('/').filter(Boolean);
const isParameter = (segment: string) => segment.startsWith('{');
/** Every method a request may come with: a gateway route may be one method's, or any. */
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'];

/**
 * The routes an area's entry carries, in the table's order: its own, and every other area's whose path
 * a request API Gateway sends to this function could have (a greedy prefix of the area's takes another
 * area's path with a method the other's gateway routes lack), so the router and the fallback answer every
 * request that reaches the function as the whole table does (405 with the other area's methods, never
 * this area's route in place of one before it). The rest of the table, 25 KB of assets' cold start, is
 * never matched here. The fallback function, which takes every path no gateway route has, carries it all.
 *
 * A route is reached when a path of it, filled to fit one of the area's gateway routes (that route's
 * literal where the route has a parameter, a value no route spells elsewhere), is sent to the area: any
 * other path of both fits no fewer other gateway routes, so it is sent there no more often.
 */
export const routeDataOf = (area: string, table: readonly Route[] = routes): RouteData[] => {
  if (area === fallbackRoute.area) return routeData(table);
  const gateway = gatewayRoutes(table);
  const own = gateway.filter((route) => route.area === area).map(({ path }) => segmentsOf(path));
  const reached = (path: string) =>
    own.some((template) => {
      const greedy = template.at(-1) === '{proxy+}';
      const prefix = greedy ? template.slice(0, -1) : template;
      const segments = segmentsOf(path);
      if (greedy ? segments.length <= prefix.length : segments.length !== prefix.length) return false;
      const sample = segments.map((segment, i) => {
        const fit = prefix[i];
        if (!isParameter(segment))
          return fit === undefined || isParameter(fit) || fit === segment ? segment : null;
        return fit === undefined || isParameter(fit) ? '~' : fit;
      });
      if (sample.includes(null)) return false;
      const request = `/${sample.join('/')}`;
      return METHODS.some((method) => gatewayMatch(gateway, method, request)?.area === area);
    });
  const linked = linkedRouteIds();
  return routeData(table).filter(([id, , path, owner]) => owner === area || linked.has(id) || reached(path));
};

/**
 * The routes a link names by id (`routePath('getVehicle', …)`) anywhere in `functions/` or `shared/`:
 * every entry carries them (about 1 KB), since a module that builds one may be loaded by another area's
 * function (an export's file reads the cost roll-ups' module).
 */
let linked: Set<string> | undefined;
export const linkedRouteIds = (): Set<string> => {
  linked ??= new Set(
    ['functions', 'shared'].flatMap((folder) =>
      readdirSync(resolve(REPOSITORY_ROOT, folder), { withFileTypes: true, recursive: true })
        .filter((file) => file.isFile() && file.name.endsWith('.ts'))
        .flatMap((file) =>
          [
            ...readFileSync(resolve(file.parentPath, file.name), 'utf8').matchAll(/routePath\(\s*'(\w+)'/g),
          ].map(([, id]) => id ?? ''),
        ),
    ),
  );
  return linked;
};

/**
 * The entry module's source: the area router over its part of the route table as data (`routeDataOf`,
 * derived here from `shared/routes.ts`, so the two never disagree), its manifest and the declaration
 * modules of the other areas' types it needs, not the composition root, which evaluates every area's
 * declarations; an area in READS_EVERY_DECLARATION also what it reads of every declaration, as data.
 */
export const entrySource = (area: string, areaRoutes: readonly Route[]): string => {
  const manifest = manifests().get(area);
  return [
    "import { areaRouter } from './shared/http/area-router.ts';",
    "import { servedTable } from './shared/http/served-table.ts';",
    ...(manifest ? [`import { area as served } from './${manifest}';`] : []),
    ...declarationModulesOf(area, areaRoutes).map((path) => `import './${path}';`),
    ...everyDeclarationLines(area),
    `const table = servedTable(JSON.parse(${JSON.stringify(JSON.stringify(routeDataOf(area)))}), [${manifest ? 'served' : ''}], ${JSON.stringify([...permissionCatalogue])});`,
    `const loaders = {\n${loadersOf(areaRoutes)}\n};`,
    `export const handler = areaRouter(${JSON.stringify(area)}, table, (route) => loaders[route.id]());`,
  ].join('\n');
};

/**
 * The S3 SDK replaced, for an area none of whose routes declares a bucket, by a module that refuses when
 * loaded. Every function reads every declaration, and a declared move that copies an upload loads S3 when
 * it runs (`import()`): so without this every bundle holds S3, and esbuild files the REST-XML protocol and
 * checksum code S3 shares with the DynamoDB client (through the SDK's index modules) in the chunk every
 * cold start reads (18 KB of the status function's). Such a function's role may not touch a bucket anyway.
 */
const withoutBuckets = (areaRoutes: readonly Route[]): BuildOptions['alias'] =>
  areaRoutes.some((route) => route.access.buckets)
    ? {}
    : { '@aws-sdk/client-s3': resolve(REPOSITORY_ROOT, 'infra/no-bucket-access.cjs') };

/** `functions/<folder>/…`: the folder, an area's home. */
const areaFolder = (path: string) => /^functions\/([^/]+)\//.exec(path)?.[1];

/**
 * The modules declarations load when called (a move's writes, a facts reader, a derived attribute's
 * reads), each with the area folder of the declaration naming it: found once, from the route table's
 * bundle alone (every function's bundle holds that graph).
 */
let lazyModules: { folder: string; path: string }[] | undefined;
export const declaredLazyModules = () => {
  lazyModules ??= Object.entries(
    buildSync({
      ...nodeBundle,
      entryPoints: ['shared/routes.ts'],
      absWorkingDir: REPOSITORY_ROOT,
      outdir: 'unwritten',
      splitting: true,
      write: false,
      metafile: true,
    }).metafile.inputs,
  ).flatMap(([importer, { imports }]) => {
    const folder = areaFolder(importer);
    return folder
      ? imports
          .filter((i) => i.kind === 'dynamic-import' && !i.external)
          .map((i) => ({ folder, path: i.path }))
      : [];
  });
  return lazyModules;
};

/**
 * The lazy modules of declarations no type of the area's answers comes from, left out of its bundle.
 * Every function reads every declaration, and esbuild gives each `import()` its own entry: it then files
 * the code every cold start reads in one chunk for each set of entries that reach it (42 files for the
 * status function, where 11 hold the same code without them; 106 ms to its first answer against 89).
 * A function moves, derives and reads the facts of the types it answers or includes only, and those
 * types' declarations live in the folders of the areas serving them: their modules stay.
 */
const otherAreasLazyModules = (area: string, areaRoutes: readonly Route[]): string[] => {
  const servedBy = new Map(
    routes.flatMap((route) => (route.declared ? [[route.declared.resource.type, route.area]] : [])),
  );
  const folders = new Set([
    area,
    ...areaRoutes.flatMap((route) => areaFolder(route.handler) ?? []),
    ...areaRoutes.flatMap((route) => typesOf(route).flatMap((type) => servedBy.get(type) ?? [])),
  ]);
  return declaredLazyModules()
    .filter(({ folder }) => !folders.has(folder))
    .map(({ path }) => resolve(REPOSITORY_ROOT, path));
};

export const bundleOptions = (area: string, areaRoutes: readonly Route[], outdir: string): BuildOptions => ({
  ...nodeBundle,
  alias: withoutBuckets(areaRoutes),
  external: otherAreasLazyModules(area, areaRoutes),
  stdin: {
    contents: entrySource(area, areaRoutes),
    resolveDir: REPOSITORY_ROOT,
    loader: 'ts',
    sourcefile: `${area}.ts`,
  },
  splitting: true,
  outdir,
  entryNames: 'index',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
});

/**
 * The area's bundle, with the files its routes serve (`Route.files`) at their repository paths; the
 * OpenAPI files are generated afresh from the code (`npm run openapi` into the bundle), not copied.
 */
export const bundleArea = (area: string, areaRoutes: readonly Route[], outdir: string) => {
  const built = buildSync({ ...bundleOptions(area, areaRoutes, outdir), metafile: true });
  const entry = Object.keys(built.metafile.outputs).find((file) => file.endsWith('index.mjs'));
  if (!entry) throw new Error(`${area}: esbuild wrote no index.mjs`);
  const result = { ...built, metafile: mergeEntryChunks(built.metafile, entry, process.cwd()) };
  const files = new Set(areaRoutes.flatMap((route) => route.files ?? []));
  const generated: readonly string[] = SPECIFICATION_FILES;
  if (generated.some((file) => files.has(file))) {
    execFileSync(process.execPath, ['--import', 'tsx', 'infra/openapi/write.ts', resolve(outdir, 'docs')], {
      cwd: REPOSITORY_ROOT,
      stdio: 'inherit',
    });
  }
  for (const file of files) {
    if (generated.includes(file)) continue;
    mkdirSync(dirname(resolve(outdir, file)), { recursive: true });
    copyFileSync(resolve(REPOSITORY_ROOT, file), resolve(outdir, file));
  }
  return result;
};

/**
 * The output files a cold start reads: the entry (and its static imports: none, once merged), then, for a
 * route, its handler's chunk and that chunk's (a lazy `import()` is read only when called).
 */
export const coldStartFiles = (metafile: Metafile, route?: Route): Set<string> => {
  const entries = Object.entries(metafile.outputs);
  const chunk = route && entries.find(([, o]) => o.entryPoint?.endsWith(route.handler))?.[0];
  const index = entries.flatMap(([file]) => (file.endsWith('index.mjs') ? [file] : []));
  return staticClosure(metafile.outputs, ...index, ...(chunk ? [chunk] : []));
};
