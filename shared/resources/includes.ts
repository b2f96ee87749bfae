/**
 * Include resolution: one BatchGetItem per include level, whatever the page size, reading only inside
 * the request's scope, with the records the included ones derive their meta from (`derivedKeys`). `vehicle.equipment` reads vehicles in one batch, then their equipment in the next.
 */
import { batchGetInScopeWith } from '../data/repository';
import type { Scope } from '../data/scope';
import type { ItemKey, StoredResource } from '../data/stored-resource';
import { resourceTypes } from '../routes';
import type { ResourceDefinition } from './resource-definition';
import { relatedIds } from './serialise';

interface IncludeTree {
  [relationship: string]: IncludeTree;
}

export interface Included {
  definition: ResourceDefinition;
  item: StoredResource;
}

const toTree = (paths: readonly string[][]): IncludeTree => {
  const tree: IncludeTree = {};
  for (const path of paths) {
    let node = tree;
    for (const segment of path) node = node[segment] ??= {};
  }
  return tree;
};

interface Branch {
  definition: ResourceDefinition;
  items: StoredResource[];
  tree: IncludeTree;
}

const keyString = (key: ItemKey) => `${key.pk}\n${key.sk}`;

export const resolveIncludes = async (
  scope: Scope,
  definition: ResourceDefinition,
  primaries: readonly StoredResource[],
  paths: readonly string[][],
): Promise<Included[]> => {
  // Records in hand (the page, and what earlier levels included) are never read again.
  const known = new Map(primaries.map((p) => [`${p.type}/${p.id}`, p]));
  const included: Included[] = [];
  let frontier: Branch[] = [{ definition, items: [...primaries], tree: toTree(paths) }];
  while (frontier.length > 0) {
    const requests = frontier.flatMap(({ definition: source, items, tree }) =>
      Object.entries(tree).flatMap(([name, subtree]) => {
        const target = resourceTypes.get(source.relationships[name]?.type ?? '');
        if (!target) return [];
        const related = items.flatMap((item) =>
          relatedIds(item, name).map((id) => ({ org: item.org_id, id })),
        );
        const unread = related.filter(({ id }) => !known.has(`${target.type}/${id}`));
        const keys = unread.map(({ org, id }) => target.keyOf(org, id));
        // What their answers derive from (a folder's tally) comes in the same read.
        const ahead = unread.flatMap(({ org, id }) => target.derivedKeys?.(org, id) ?? []);
        return [{ definition: target, related, keys, ahead, tree: subtree }];
      }),
    );
    if (requests.length === 0) break;
    const fetched = new Map(
      (
        await batchGetInScopeWith(
          scope,
          requests.flatMap((r) => r.keys),
          requests.flatMap((r) => r.ahead),
        )
      ).map((item) => [keyString(item), item]),
    );
    frontier = requests.map(({ definition: target, related, tree }) => {
      const items = related
        .map(
          ({ org, id }) => known.get(`${target.type}/${id}`) ?? fetched.get(keyString(target.keyOf(org, id))),
        )
        .filter((i): i is StoredResource => i !== undefined);
      for (const item of items) {
        const id = `${item.type}/${item.id}`;
        if (!known.has(id)) {
          known.set(id, item);
          included.push({ definition: target, item });
        }
      }
      return { definition: target, items, tree };
    });
    frontier = frontier.filter((b) => b.items.length > 0 && Object.keys(b.tree).length > 0);
  }
  // Included records carry the same derived meta as when they are read on their own (a user's grants,
  // a folder's path and counts, a scheme's progress).
  const types = [...new Set(included.map((i) => i.definition))].filter((d) => d.derive);
  const derived = new Map(
    (
      await Promise.all(
        types.map(
          (d) =>
            d.derive?.(
              scope,
              included.filter((i) => i.definition === d).map((i) => i.item),
            ) ?? [],
        ),
      )
    )
      .flat()
      .map((item) => [`${item.type}/${item.id}`, item]),
  );
  return included.map(({ definition: d, item }) => ({
    definition: d,
    item: derived.get(`${item.type}/${item.id}`) ?? item,
  }));
};
