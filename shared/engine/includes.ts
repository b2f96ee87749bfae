/**
 * Include resolution: one BatchGetItem per include level, whatever the page size, reading only inside
 * the request's scope, with the records the included ones derive their meta from (`derivedKeys`). `vehicle.equipment` reads vehicles in one batch, then their equipment in the next.
 */
import { batchGetInScopeWith } from '../data/repository';
import type { Scope } from '../data/scope';
import type { ItemKey, StoredResource } from '../data/stored-resource';
import { identifiersOf, storedUnder, targetTypes } from './relationship-targets';
import { declaredType, type ResourceDefinition } from './resource-definition';

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
  /** Records read with the page (a nested collection's parent), as answered (derived), included when related, not read again. */
  inHand: readonly StoredResource[] = [],
): Promise<Included[]> => {
  // Records in hand (the page, what was read with it, and what earlier levels included) are never read again.
  const known = new Map(primaries.map((p) => [`${p.type}/${p.id}`, p]));
  const spare = new Map(inHand.map((r) => [`${r.type}/${r.id}`, r]));
  const held = (type: string, id: string) => known.get(`${type}/${id}`) ?? spare.get(`${type}/${id}`);
  const included: Included[] = [];
  let frontier: Branch[] = [{ definition, items: [...primaries], tree: toTree(paths) }];
  while (frontier.length > 0) {
    const requests = frontier.flatMap(({ definition: source, items, tree }) =>
      Object.entries(tree).flatMap(([name, subtree]) => {
        const relationship = source.relationships[name];
        if (!relationship) return [];
        const named = items.flatMap((item) =>
          identifiersOf(relationship, storedUnder(item, name)).map((to) => ({ org: item.org_id, ...to })),
        );
        // A polymorphic relationship is one branch per type it names here, all read in the same batch.
        return targetTypes(relationship).flatMap((type) => {
          const target = declaredType(type);
          if (!target) return [];
          const related = named.filter((to) => to.type === type);
          const unread = related.filter(({ id }) => !held(type, id));
          const keys = unread.map(({ org, id }) => target.keyOf(org, id));
          // What their answers derive from (a folder's tally) comes in the same read.
          const ahead = unread.flatMap(({ org, id }) => target.derivedKeys?.(org, id) ?? []);
          return [{ definition: target, related, keys, ahead, tree: subtree }];
        });
      }),
    );
    if (requests.length === 0) break;
    const read = await batchGetInScopeWith(
      scope,
      requests.flatMap((r) => r.keys),
      requests.flatMap((r) => r.ahead),
    );
    // Derived as read, before their relationships are followed: included records carry the same meta and
    // relationships as when read on their own (a user's grants, a folder's counts, a vehicle's equipment),
    // from what the same read brought ahead.
    const types = new Map(requests.map((r) => [r.definition.type, r.definition]));
    const fetched = new Map(
      (
        await Promise.all(
          [...types.values()].map((d) => {
            const mine = read.filter((item) => item.type === d.type);
            return d.derive ? d.derive(scope, mine) : mine;
          }),
        )
      )
        .flat()
        .map((item) => [keyString(item), item]),
    );
    frontier = requests.map(({ definition: target, related, tree }) => {
      const items = related
        .map(({ org, id }) => held(target.type, id) ?? fetched.get(keyString(target.keyOf(org, id))))
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
  return included;
};
