/**
 * GET /v3/cost-rollups (spec rules 1–12): the named-filter expression picks a node; its subtree's nodes
 * are one paged Query on the tree index; soft-deleted nodes and what lies beneath them are not in the
 * walk; totals are sums of the lines' snapshots, which each node keeps for its own lines as they are
 * written (node-totals.ts), so a roll-up reads one item per node whatever the number of lines. Amounts
 * are integer minor units.
 */
import { operations, schemeContracts, schemes, workOrders } from '#functions/projects/definitions';
import { authorise, type Principal } from '#shared/auth/principal';
import { getInScope } from '#shared/data/repository';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { subtree } from '#shared/data/trees';
import type { ResourceDefinition } from '#shared/engine/resource-definition';
import { routePath } from '#shared/http/links';
import { features, parsePage, rejectUnknownParameters } from '#shared/jsonapi/collection-query';
import { type CollectionDocument, collectionDocument, type ResourceObject } from '#shared/jsonapi/document';
import type { RequestTarget } from '#shared/jsonapi/document-links';
import { ConflictError, NotFoundError, UnauthorisedError, ValidationError } from '#shared/jsonapi/errors';
import { hasSheet, keptSums } from './node-totals';
import { type CostNode, InexactTotal, MixedCurrencies, rollUpSums } from './rules/roll-up';
import {
  type CostCentreType,
  parseRollUpFilter,
  ROLL_UP_FILTER_FIELDS,
  type RollUpFilter,
} from './rules/roll-up-filter';

const NODE_TYPES = new Set(['scheme-contracts', 'schemes', 'work-orders', 'operations']);
export const ROLL_UP_FILTER_CODE = 'CH.004.211';

const segments = (path: string | undefined) => (path ?? '').split('/').filter(Boolean);

/** The roll-up filter expression, parsed (400 when it is not one); null when it is empty. */
export const parseRollUps = (filterText: string | undefined): RollUpFilter | null => {
  const parsed = parseRollUpFilter(filterText);
  if (!parsed.ok) {
    throw new ValidationError({
      code: ROLL_UP_FILTER_CODE,
      detail: parsed.problem,
      source: { parameter: 'filter' },
    });
  }
  return parsed.filter;
};

/**
 * The declarations of the nodes a roll-up starts from, held here rather than looked up by name: every
 * function reading roll-ups (costs, and exports with its job) then finds them, whatever else it loads.
 */
const costCentres: Record<CostCentreType, ResourceDefinition> = {
  'scheme-contracts': schemeContracts,
  schemes,
  'work-orders': workOrders,
  operations,
};

/** The node the filter names, in the scope (404 when there is none). */
export const rollUpRoot = async (scope: Scope, { costCentre, costCentreType }: RollUpFilter) => {
  const root = await getInScope(scope, costCentres[costCentreType].keyOf, costCentre);
  if (!root?.tree_path) throw new NotFoundError(`No ${costCentreType} with id ${costCentre}.`);
  return root;
};

/**
 * Every roll-up the named-filter expression selects (root first, then depth-first), as resource
 * objects; null when the expression is empty. Used by the collection route.
 */
export const rollUpResources = async (
  principal: Principal | null,
  filterText: string | undefined,
  baseUrl: string,
): Promise<ResourceObject[] | null> => {
  const filter = parseRollUps(filterText);
  if (!filter) return null;
  if (!principal) throw new UnauthorisedError();
  const scope = authorise(principal, 'cost-lines:view', filter.organisation);
  return rollUpsUnder(scope, await rollUpRoot(scope, filter), filter, baseUrl);
};

/** The roll-ups of `root`'s subtree (or of `root` alone, by the filter's depth); for exports too. */
export const rollUpsUnder = async (
  scope: Scope,
  root: StoredResource,
  { organisation, depth }: RollUpFilter,
  baseUrl: string,
): Promise<ResourceObject[]> => {
  // Rule 8: a soft-deleted node leaves the tree index, so the walk from the root (in `rollUpSums`) never
  // reaches it, nor anything beneath it. Each node keeps its own lines' sums (node-totals.ts), so the
  // walk reads nodes only (records of other types filed in the tree before are passed over).
  const nodes = (await subtree(scope, root)).filter((r) => NODE_TYPES.has(r.type));
  const byId = new Map(nodes.map((n): [string, StoredResource] => [n.id, n]));
  const costNodes: CostNode[] = nodes.map((n) => ({
    id: n.id,
    parentId: n.id === root.id ? null : (segments(n.tree_path).at(-2) ?? null),
  }));
  let totals: ReturnType<typeof rollUpSums>;
  try {
    totals = rollUpSums(costNodes, new Map(nodes.map((n) => [n.id, keptSums(n)])), root.id);
  } catch (error) {
    if (error instanceof MixedCurrencies || error instanceof InexactTotal)
      throw new ConflictError(error.message);
    throw error;
  }
  // Rules 4 and 5: the node alone, or every node of its subtree (root first, then depth-first).
  const elements =
    depth === 'self'
      ? [root]
      : [...totals.keys()].map((id) => byId.get(id)).filter((n): n is StoredResource => !!n);
  return elements.map((node): ResourceObject => {
    const parent = node.id === root.id ? null : byId.get(segments(node.tree_path).at(-2) ?? '');
    return {
      type: 'cost-rollups',
      id: node.id,
      attributes: {
        cost_centre_id: node.id,
        cost_centre_type: node.type,
        parent_cost_centre_id: parent?.id ?? null,
        parent_cost_centre_type: parent?.type ?? null,
        name: node.attributes.name ?? null,
        code: node.attributes.code ?? null,
        has_cost_sheet: hasSheet(node),
        ...totals.get(node.id),
      },
      meta: {},
      relationships: {},
      links: {
        self: `${baseUrl}${routePath('listCostRollups')}?${new URLSearchParams({ filter: `and(eq(organisation,${organisation}),eq(cost_centre,${node.id}),eq(cost_centre_type,${node.type}))` })}`,
      },
    };
  });
};

export const costRollUps = async (
  principal: Principal | null,
  request: RequestTarget,
): Promise<CollectionDocument> => {
  const { query } = request;
  rejectUnknownParameters(query, /^(filter|limit|offset|page\[(limit|offset)\])$/);
  const page = parsePage(query);
  const all = (await rollUpResources(principal, query.filter, request.baseUrl)) ?? [];
  return collectionDocument(request, {
    data: all.slice(page.offset, page.offset + page.limit),
    included: [],
    page,
    total: all.length,
    // The names the filter expression takes; roll-ups have no includes and one fixed order.
    features: features({ filter: ROLL_UP_FILTER_FIELDS, include: [], sort: [] }),
  });
};
