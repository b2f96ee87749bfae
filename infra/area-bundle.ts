/**
 * How an area function is built: an entry generated from the route table (the composition root, loaded
 * first so every route and type is registered, then the area router, with one static `import()` per route
 * so esbuild knows every handler), bundled by esbuild with code splitting, so
 * each route's handler is its own chunk and a cold start loads only the chunks of the route it serves.
 * The stack and `npm run bench` both build with this.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import { fallbackRoute, type Route, routes } from '#shared/routes';
import { typesOf } from './answered-types';
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

/** The entry module's source: the area router, loading each route's handler module by a literal import. */
export const entrySource = (area: string, areaRoutes: readonly Route[]): string => {
  const loaders = [...areaRoutes, fallbackRoute]
    .filter((route, i, all) => all.indexOf(route) === i)
    .map((route) => `  ${JSON.stringify(route.id)}: () => import(${JSON.stringify(`./${route.handler}`)}),`);
  return [
    "import { fallbackRoute, matchRoute } from './shared/routes.ts';",
    "import { areaRouter } from './shared/http/area-router.ts';",
    `const loaders = {\n${loaders.join('\n')}\n};`,
    `export const handler = areaRouter(${JSON.stringify(area)}, { matchRoute, fallbackRoute }, (route) => loaders[route.id]());`,
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
  const result = buildSync({ ...bundleOptions(area, areaRoutes, outdir), metafile: true });
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
 * The output files a cold start reads: the entry and its static imports, then, for a route, its handler's
 * chunk and that chunk's (a lazy `import()` is read only when called).
 */
export const coldStartFiles = (metafile: Metafile, route?: Route): Set<string> => {
  const { outputs } = metafile;
  const read = new Set<string>();
  const visit = (file: string) => {
    if (read.has(file)) return;
    read.add(file);
    for (const i of outputs[file]?.imports ?? [])
      if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  const entries = Object.entries(outputs);
  for (const [file] of entries) if (file.endsWith('index.mjs')) visit(file);
  const chunk = route && entries.find(([, o]) => o.entryPoint?.endsWith(route.handler))?.[0];
  if (chunk) visit(chunk);
  return read;
};
