/**
 * The areas' request examples (`shared/engine/examples.ts`), loaded from each area's
 * `functions/<area>/examples.ts`: the tests send them with an organisation's ids, and the OpenAPI
 * document shows them with made-up ones.
 */
import { createHash } from 'node:crypto';
import type { Ids, RequestExample, RequestExamples } from '#shared/engine/examples';
import { routes } from '#shared/routes';
import { areaModules, loadModule } from './area-modules';

/** An area's examples, refused if one is of a route its area does not serve (a typo, or another area's). */
export const ownExamples = (area: string, module: string, examples: RequestExamples) => {
  const strays = Object.keys(examples).filter((id) => areaOf.get(id) !== area);
  if (strays.length > 0)
    throw new Error(`${module} has examples of ${strays.join(', ')}: no routes of ${area}`);
  return Object.entries(examples);
};

const areaOf = new Map<string, string>(routes.map((route) => [route.id, route.area]));

/** Every area's examples by route id. */
export const loadRequestExamples = async (): Promise<ReadonlyMap<string, RequestExample | null>> => {
  const loaded = new Map<string, RequestExample | null>();
  for (const [area, module] of areaModules('examples.ts')) {
    const { examples } = await loadModule<{ examples: RequestExamples }>(module);
    for (const [id, example] of ownExamples(area, module, examples)) loaded.set(id, example);
  }
  return loaded;
};

/** When the document's examples are sent: a fixed moment, so the document is the same on every run. */
export const DOCUMENT_NOW = new Date('2026-01-05T09:00:00Z');

const madeUpId = (name: string) =>
  `00000000-0000-4000-8000-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;

/**
 * The ids the document's examples name, whatever names they read: for each name a plainly made-up UUID
 * (zeros but its last group, from the name), the same in every document; `reference` (a prefix of
 * values unique in an organisation) is EXAMPLE.
 */
export const documentIds: Ids = new Proxy(
  {},
  {
    get: (_, name) =>
      name === 'reference' ? 'EXAMPLE' : typeof name === 'string' ? madeUpId(name) : undefined,
  },
);
