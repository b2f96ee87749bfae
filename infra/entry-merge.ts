/**
 * An area's entry with the chunks it imports statically merged into it, after esbuild's code splitting.
 *
 * esbuild files each module in the chunk of the set of entries that reach it, and every route's `import()`
 * is an entry: a module the area entry imports and some routes also import lands in one chunk per such
 * set, though the entry has loaded it before any route runs. So a cold start read 3–31 files where the
 * code is one file's worth (each file is the module loader's resolve, read, parse and link: about 0.3 ms).
 * Every one of those chunks is read by every cold start, so merging them into the entry loads nothing
 * more; the route chunks and lazy modules stay apart, and import what they share with the entry from it.
 *
 * One more esbuild build does it, on the first build's output: the entry with its static chunks bundled
 * into one file that re-exports each chunk's exports under a short name of its own; each other chunk
 * that imported one then has that import rewritten to take those names from the entry (esbuild writes a
 * chunk's imports at its head in two plain forms; rebuilding the chunks instead would keep, in each, every
 * name of the entry a re-export names: 30 % more bytes). The metafile is rewritten to match, so what the
 * tests and the bench read of it is the files on disk.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { buildSync, type Metafile } from 'esbuild';
import { nodeBundle } from './node-bundle';

/** The output files `entries` read as they load: themselves and their static imports, followed. */
export const staticClosure = (outputs: Metafile['outputs'], ...entries: string[]): Set<string> => {
  const read = new Set<string>();
  const visit = (file: string) => {
    if (read.has(file)) return;
    read.add(file);
    for (const i of outputs[file]?.imports ?? [])
      if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  for (const entry of entries) visit(entry);
  return read;
};

/** `./x` for a path beside `from`: a relative import specifier. */
const specifier = (from: string, to: string) => {
  const path = relative(from, to);
  return path.startsWith('.') ? path : `./${path}`;
};

const FIRST = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$';
const NEXT = `${FIRST}0123456789`;
/** The JavaScript words an export of two letters could spell. */
const RESERVED = new Set(['do', 'if', 'in']);

/** A generator of distinct identifiers, shortest first: `a`…`$`, then `aa`, `ab`… */
const shortNames = () => {
  let n = 0;
  const nth = (i: number): string =>
    i < FIRST.length
      ? (FIRST[i] ?? '')
      : nth(Math.floor((i - FIRST.length) / NEXT.length)) + (NEXT[(i - FIRST.length) % NEXT.length] ?? '');
  return (): string => {
    let name = nth(n++);
    while (RESERVED.has(name)) name = nth(n++);
    return name;
  };
};

/** An import esbuild writes at a chunk's head: `import{a as b,c}from"./x.mjs";` or `import"./x.mjs";`. */
const HEAD_IMPORT = /^\n?import(?:\{([^}]*)\}from)?"([^"]+)";/;

/**
 * A chunk's source with its imports of merged chunks (`aliases`: each merged file's exports by the names
 * the entry re-exports them under) taken from the entry instead: the names it uses in one import of the
 * entry, the rest dropped (the entry has run them). esbuild writes a chunk's imports first, in these two
 * forms only; a merged chunk named anywhere else in it fails the build rather than leave a dangling import.
 */
export const importingFromEntry = (
  source: string,
  file: string,
  entryFile: string,
  aliases: ReadonlyMap<string, ReadonlyMap<string, string>>,
): string => {
  const banner = nodeBundle.banner.js;
  let rest = source.startsWith(banner) ? source.slice(banner.length) : source;
  const head: string[] = [];
  const fromEntry: string[] = [];
  for (let found = HEAD_IMPORT.exec(rest); found; found = HEAD_IMPORT.exec(rest)) {
    rest = rest.slice(found[0].length);
    const [statement, clause, path = ''] = found;
    const names = aliases.get(resolve(dirname(file), path));
    if (!names) {
      head.push(statement);
      continue;
    }
    for (const binding of clause ? clause.split(',') : []) {
      const [name = '', local = name] = binding.split(' as ');
      const as = names.get(name);
      if (!as) throw new Error(`${file}: ${path} exports no ${name}`);
      fromEntry.push(as === local ? as : `${as} as ${local}`);
    }
  }
  for (const merged of aliases.keys())
    if (rest.includes(basename(merged)))
      throw new Error(`${file} names ${basename(merged)} outside its imports`);
  const entryImport =
    fromEntry.length > 0
      ? [`import{${fromEntry.join(',')}}from${JSON.stringify(specifier(dirname(file), entryFile))};`]
      : [];
  return [source.startsWith(banner) ? banner : '', ...entryImport, ...head, rest].join('');
};

const rebuild = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  minify: true,
  logLevel: 'silent',
  write: true,
  allowOverwrite: true,
  metafile: true,
} as const;

/**
 * Merges into `entry` (a key of the metafile's outputs, as are all paths here, relative to `workingDir`)
 * every chunk it imports statically, rewrites the chunks that imported those to import the entry, removes
 * the merged files, and answers the metafile of what is on disk.
 */
export const mergeEntryChunks = (metafile: Metafile, entry: string, workingDir: string): Metafile => {
  const { outputs } = metafile;
  const onDisk = (key: string) => resolve(workingDir, key);
  const merged = [...staticClosure(outputs, entry)].filter((file) => file !== entry);
  if (merged.length === 0) return metafile;
  const entryFile = onDisk(entry);
  const outdir = dirname(entryFile);
  const mergedFiles = new Set(merged.map(onDisk));
  // Every file the first build's output names, by its path on disk: its output files, and the modules it
  // left outside (other areas' lazy modules), written relative to the file importing them.
  const named = new Set(
    Object.entries(outputs).flatMap(([file, output]) => [
      onDisk(file),
      ...output.imports.flatMap((i) =>
        i.external && i.path.startsWith('.') ? [resolve(dirname(onDisk(file)), i.path)] : [],
      ),
    ]),
  );
  /** What the rebuild leaves an import: every named file but those it bundles (written relative to it). */
  const outside = (...bundled: string[]) => [...named].filter((file) => !bundled.includes(file));

  // Each merged chunk's exports, re-exported by the entry under a name of its own, as short as the
  // chunks' own (every importer lists the names it takes: long ones cost it bytes).
  const exportName = shortNames();
  const exported = merged.map((chunk) => ({
    file: onDisk(chunk),
    names: (outputs[chunk]?.exports ?? []).map((name) => ({ name, as: exportName() })),
  }));
  const { metafile: rebuilt } = buildSync({
    ...rebuild,
    stdin: {
      contents: [
        `export * from ${JSON.stringify(specifier(outdir, entryFile))};`,
        ...exported
          .filter(({ names }) => names.length > 0)
          .map(
            ({ file, names }) =>
              `export { ${names.map(({ name, as }) => `${name} as ${as}`).join(', ')} } from ${JSON.stringify(specifier(outdir, file))};`,
          ),
      ].join('\n'),
      resolveDir: outdir,
      loader: 'js',
    },
    outfile: entryFile,
    external: outside(entryFile, ...mergedFiles),
  });

  // The other chunks that imported one now import its names from the entry.
  const aliases = new Map(
    exported.map(({ file, names }) => [file, new Map(names.map((n) => [n.name, n.as]))]),
  );
  const importers = Object.keys(outputs).filter(
    (file) =>
      !mergedFiles.has(onDisk(file)) &&
      file !== entry &&
      (outputs[file]?.imports ?? []).some((i) => !i.external && mergedFiles.has(onDisk(i.path))),
  );
  const importingEntry = new Set<string>();
  for (const importer of importers) {
    const file = onDisk(importer);
    const source = importingFromEntry(readFileSync(file, 'utf8'), file, entryFile, aliases);
    writeFileSync(file, source);
    if (source.includes(`from${JSON.stringify(specifier(dirname(file), entryFile))};`))
      importingEntry.add(importer);
  }
  for (const file of mergedFiles) rmSync(file);

  // The metafile of the files now on disk: the entry holds the merged chunks' inputs and their imports of
  // other files; an importer imports the entry in place of the merged chunks it took names from.
  const entryOutput = outputs[entry];
  if (!entryOutput) throw new Error(`${entry} is not an output`);
  const notMerged = (i: { path: string; external?: boolean }) =>
    i.external || !mergedFiles.has(onDisk(i.path));
  const rewritten: Metafile['outputs'] = {};
  for (const [file, output] of Object.entries(outputs)) {
    if (mergedFiles.has(onDisk(file))) continue;
    if (file === entry) {
      const parts = [entryOutput, ...merged.flatMap((chunk) => outputs[chunk] ?? [])];
      rewritten[file] = {
        ...entryOutput,
        bytes: statSync(entryFile).size,
        inputs: Object.assign({}, ...parts.map((part) => part.inputs)),
        imports: parts
          .flatMap((part) => part.imports.filter(notMerged))
          .filter((i, n, all) => all.findIndex((j) => j.kind === i.kind && j.path === i.path) === n),
        exports: Object.values(rebuilt.outputs)[0]?.exports ?? entryOutput.exports,
      };
    } else if (importers.includes(file)) {
      rewritten[file] = {
        ...output,
        bytes: statSync(onDisk(file)).size,
        imports: [
          ...(importingEntry.has(file) ? [{ path: entry, kind: 'import-statement' as const }] : []),
          ...output.imports.filter(notMerged),
        ],
      };
    } else rewritten[file] = output;
  }
  return { ...metafile, outputs: rewritten };
};
