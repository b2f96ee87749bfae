/**
 * The repository's import graph, read from the sources with TypeScript's parser (every `import`,
 * `import type`, `export … from` and `import()`), with specifiers resolved as the project does:
 * relative paths and the `#shared/*` and `#functions/*` aliases of package.json. Type-only imports count: a type read from the
 * route table still ties the engine to every area. The import-rule test and the floor-plan figures read it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const REPOSITORY = resolve(import.meta.dirname, '../..');

/** Repository-relative paths of the `.ts` files under the given folders. */
export const sourceFiles = (...folders: string[]): string[] => {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(REPOSITORY, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(path);
    }
  };
  for (const folder of folders) walk(folder);
  return found.sort();
};

/** The repository file a specifier names, or undefined for a package (or a file that is not TypeScript). */
export const resolveSpecifier = (from: string, specifier: string): string | undefined => {
  const alias = /^#(shared|functions)\//.exec(specifier);
  const base = alias
    ? join(alias[1] as string, specifier.slice(alias[0].length))
    : specifier.startsWith('.')
      ? join(dirname(from), specifier)
      : undefined;
  if (base === undefined) return undefined;
  const stem = base.replace(/\.(ts|js|mjs)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}/index.ts`]) {
    if (existsSync(join(REPOSITORY, candidate))) return relative(REPOSITORY, join(REPOSITORY, candidate));
  }
  return undefined;
};

/**
 * How a file imports another: `static` is evaluated when the file loads (the order a bundle and Node must
 * agree on), `type` is erased by the compiler, `dynamic` (`import()`) loads when it runs.
 */
export type ImportKind = 'static' | 'type' | 'dynamic';

export interface Import {
  target: string;
  kind: ImportKind;
  line: number;
}

const kindOf = (statement: ts.ImportDeclaration | ts.ExportDeclaration): ImportKind => {
  if (ts.isExportDeclaration(statement)) {
    if (statement.isTypeOnly) return 'type';
    const clause = statement.exportClause;
    return clause &&
      ts.isNamedExports(clause) &&
      clause.elements.length > 0 &&
      clause.elements.every((e) => e.isTypeOnly)
      ? 'type'
      : 'static';
  }
  const clause = statement.importClause;
  if (!clause) return 'static';
  if (clause.isTypeOnly) return 'type';
  const named = clause.namedBindings;
  return !clause.name &&
    named &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
    ? 'type'
    : 'static';
};

/** What a file imports from the repository, each with its kind and line (for a readable failure). */
export const importsOf = (file: string, source?: string): Import[] => {
  const text = source ?? readFileSync(join(REPOSITORY, file), 'utf8');
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const add = (specifier: ts.Expression, kind: ImportKind) => {
    if (!ts.isStringLiteralLike(specifier)) return;
    const target = resolveSpecifier(file, specifier.text);
    if (target)
      found.push({
        target,
        kind,
        line: sourceFile.getLineAndCharacterOfPosition(specifier.getStart()).line + 1,
      });
  };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      add(node.moduleSpecifier, kindOf(node));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier) add(specifier, 'dynamic');
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, 'type');
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
};

export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/**
 * Each file's repository imports of the given kinds (all by default), for the given files; imports of
 * files outside them are kept as edges.
 */
export const importGraph = (
  files: readonly string[],
  kinds: readonly ImportKind[] = ['static', 'type', 'dynamic'],
  sources?: ReadonlyMap<string, string>,
): ImportGraph =>
  new Map(
    files.map((file) => [
      file,
      [
        ...new Set(
          importsOf(file, sources?.get(file)).flatMap((i) => (kinds.includes(i.kind) ? [i.target] : [])),
        ),
      ],
    ]),
  );

/**
 * The strongly connected components of more than one file (Tarjan's algorithm, iterative so a deep graph
 * cannot overflow the stack): each is a set of files that import one another round a circle.
 */
export const importCircles = (graph: ImportGraph): string[][] => {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { file: string; edge: number }[] = [{ file: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { file: string; edge: number };
      const edges = (graph.get(frame.file) ?? []).filter((t) => graph.has(t));
      const target = edges[frame.edge++];
      if (target !== undefined) {
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file) ?? 0, low.get(frame.file) ?? 0));
      if (low.get(frame.file) === index.get(frame.file)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop();
          if (member === undefined) break;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.file);
        if (component.length > 1) circles.push(component.sort());
      }
    }
  }
  return circles;
};

/** One circle as a readable path: a file, the file it imports, … back to the first. */
export const circlePath = (graph: ImportGraph, circle: readonly string[]): string[] => {
  const members = new Set(circle);
  const first = circle[0] as string;
  // Breadth-first from the first file's imports back to it, inside the circle.
  const previous = new Map<string, string>();
  const queue = [first];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const target of graph.get(file) ?? []) {
      if (!members.has(target) || previous.has(target)) continue;
      previous.set(target, file);
      if (target === first) queue.length = 0;
      else queue.push(target);
    }
  }
  const chain: string[] = [];
  for (let at = previous.get(first); at !== undefined && at !== first; at = previous.get(at))
    chain.unshift(at);
  return [first, ...chain, first];
};
