/**
 * The few API Gateway routes that send each area's requests to its function: greedy `{proxy+}` routes at
 * the path prefixes an area owns, and exact routes where a prefix is itself a path. Derived from the
 * route table, so a new route needs no gateway change; the area router then picks the route itself.
 *
 * API Gateway (HTTP API) prefers a full match to a greedy one, and the greedy route with the longest
 * prefix to a shorter one; `$default` takes the rest. Where areas share a prefix, the area with most routes
 * under it takes the greedy route, and each other area gets longer prefixes of its own.
 */
import type { HttpMethod, Route } from '#shared/routes';

export interface GatewayRoute {
  /** `ANY` for a prefix or path of one area; a method where one path is served by several areas. */
  method: HttpMethod | 'ANY';
  /** A path template; a greedy route ends in `/{proxy+}`. */
  path: string;
  area: string;
}

interface Node {
  /** The segment as the first route through here wrote it (`{org_id}`). */
  segment: string;
  children: Map<string, Node>;
  /** Routes whose path ends here. */
  ends: Route[];
  /** Routes at or below here, by area. */
  areas: Map<string, number>;
}

const newNode = (segment: string): Node => ({ segment, children: new Map(), ends: [], areas: new Map() });
/** Parameters of any name are one gateway segment. */
const slot = (segment: string) => (segment.startsWith('{') ? '{}' : segment);

const trieOf = (routes: readonly Route[]): Node => {
  const root = newNode('');
  for (const route of routes) {
    let node = root;
    const count = (n: Node) => n.areas.set(route.area, (n.areas.get(route.area) ?? 0) + 1);
    count(node);
    for (const segment of route.path.split('/').filter(Boolean)) {
      let child = node.children.get(slot(segment));
      if (!child) {
        child = newNode(segment);
        node.children.set(slot(segment), child);
      }
      node = child;
      count(node);
    }
    node.ends.push(route);
  }
  return root;
};

/** The area with most routes below a node (ties: the first by name, so the result is stable). */
const majority = (areas: Map<string, number>): string =>
  [...areas].sort(([a, x], [b, y]) => y - x || a.localeCompare(b))[0]?.[0] ?? '';

export const gatewayRoutes = (routes: readonly Route[]): GatewayRoute[] => {
  const out: GatewayRoute[] = [];
  /** `covering`: the area whose greedy route above already takes this node's subpaths. */
  const walk = (node: Node, path: string, covering: string | undefined, depth: number) => {
    const endAreas = new Set(node.ends.map((route) => route.area));
    // The path itself, unless a greedy route above takes it for its area (`{proxy+}` needs a segment
    // after its prefix, so a greedy route at this node does not).
    if (endAreas.size === 1 && !endAreas.has(covering ?? ''))
      out.push({ method: 'ANY', path, area: [...endAreas][0] ?? '' });
    if (endAreas.size > 1) out.push(...node.ends.map((r) => ({ method: r.method, path, area: r.area })));
    if (node.children.size === 0) return;
    // Below the first segments (`/v3`, `/v3/orgs`), a prefix goes to the area with most routes under it;
    // a first segment too, where all of several routes under it are one area's (`/docs/…`).
    const below = childAreas(node);
    const several = [...below.values()].reduce((sum, n) => sum + n, 0) > 1;
    const area = depth >= 2 || (depth === 1 && below.size === 1 && several) ? majority(below) : undefined;
    if (area !== undefined && area !== covering) out.push({ method: 'ANY', path: `${path}/{proxy+}`, area });
    const cover = area ?? covering;
    for (const child of node.children.values()) {
      // A subtree wholly of the covering area needs nothing more.
      if (child.areas.size === 1 && child.areas.has(cover ?? '')) continue;
      walk(child, `${path}/${child.segment}`, cover, depth + 1);
    }
  };
  walk(trieOf(routes), '', undefined, 0);
  return out;
};

/** The routes strictly below a node, by area. */
const childAreas = (node: Node): Map<string, number> => {
  const areas = new Map(node.areas);
  for (const route of node.ends) areas.set(route.area, (areas.get(route.area) ?? 1) - 1);
  for (const [area, n] of areas) if (n === 0) areas.delete(area);
  return areas;
};

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

/**
 * The gateway route API Gateway picks for a request (null: `$default`): a full match first, then the
 * greedy route with the longest prefix.
 */
export const gatewayMatch = (
  table: readonly GatewayRoute[],
  method: string,
  path: string,
): GatewayRoute | null => {
  const request = segmentsOf(path);
  const fits = (template: string[]) =>
    template.every((segment, i) => segment.startsWith('{') || segment === request[i]);
  let best: GatewayRoute | null = null;
  let bestLength = -1;
  for (const route of table) {
    if (route.method !== 'ANY' && route.method !== method) continue;
    const template = segmentsOf(route.path);
    const greedy = template.at(-1) === '{proxy+}';
    if (!greedy) {
      if (template.length === request.length && fits(template)) return route;
      continue;
    }
    const prefix = template.slice(0, -1);
    if (request.length > prefix.length && fits(prefix) && prefix.length > bestLength) {
      best = route;
      bestLength = prefix.length;
    }
  }
  return best;
};
