/**
 * An area's modules that only tests, the bench and the OpenAPI document load, found by their name in
 * the area's home (`functions/<area>/examples.ts`, `functions/<area>/bench-seeds.ts`) rather than named
 * in its manifest, so no byte of them, not even their path, enters a function's bundle.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { routes } from '#shared/routes';
import { REPOSITORY_ROOT } from './repository';

/** Each area of the route table (in its order) with its `functions/<area>/<file>`, where it has one. */
export const areaModules = (file: string): [area: string, module: string][] =>
  [...new Set(routes.map((route) => route.area))].flatMap((area) => {
    const module = `functions/${area}/${file}`;
    return existsSync(resolve(REPOSITORY_ROOT, module)) ? [[area, module] as [string, string]] : [];
  });

/** The module at a repository path, loaded. */
export const loadModule = async <T>(module: string): Promise<T> =>
  (await import(pathToFileURL(resolve(REPOSITORY_ROOT, module)).href)) as T;
