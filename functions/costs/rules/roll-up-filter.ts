/**
 * The cost roll-up named-filter expression (spec, GET /v3/cost-rollups, rules 1–3 and 6):
 * `and(eq(organisation,<id>),eq(cost_centre,<id>),eq(cost_centre_type,<type>),eq(depth,<self|all>))`.
 * Only the first top-level expression counts: anything after a bare top-level comma is dropped. Pure.
 */
export const COST_CENTRE_TYPES = ['scheme-contracts', 'schemes', 'work-orders', 'operations'] as const;
export type CostCentreType = (typeof COST_CENTRE_TYPES)[number];

export interface RollUpFilter {
  organisation: string;
  costCentre: string;
  costCentreType: CostCentreType;
  depth: 'self' | 'all';
}

export type RollUpFilterResult = { ok: true; filter: RollUpFilter | null } | { ok: false; problem: string };

const REQUIRED = ['organisation', 'cost_centre', 'cost_centre_type'] as const;
/** Every field the expression may name: what `meta.features.params.filter.options` lists. */
export const ROLL_UP_FILTER_FIELDS: readonly string[] = [...REQUIRED, 'depth'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Splits on commas at parenthesis depth zero. */
const topLevel = (text: string): string[] => {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
};

const call = (expression: string): { name: string; args: string[] } | null => {
  const m = /^([a-z]+)\((.*)\)$/s.exec(expression);
  return m?.[1] !== undefined && m[2] !== undefined ? { name: m[1], args: topLevel(m[2]) } : null;
};

export const parseRollUpFilter = (raw: string | undefined): RollUpFilterResult => {
  const [first] = topLevel(raw ?? '');
  if (!first) return { ok: true, filter: null };
  const outer = call(first);
  const terms = outer?.name === 'and' ? outer.args : [first];
  const given: Record<string, string> = {};
  for (const term of terms) {
    const eq = call(term);
    const [field, value, ...rest] = eq?.args ?? [];
    if (eq?.name !== 'eq' || field === undefined || value === undefined || rest.length > 0) {
      return { ok: false, problem: `${term} is not an eq(field,value) term.` };
    }
    if (!ROLL_UP_FILTER_FIELDS.includes(field))
      return { ok: false, problem: `Unknown filter field ${field}.` };
    given[field] = value;
  }
  // Rule 6 holds whatever else is given: a depth, when sent, is self or all.
  const depth = given.depth ?? 'self';
  if (depth !== 'self' && depth !== 'all')
    return { ok: false, problem: 'depth must be self or all (lowercase).' };
  const present = REQUIRED.filter((f) => given[f] !== undefined);
  // Rule 2: none of the three (depth is not one of them) is an empty collection.
  if (present.length === 0) return { ok: true, filter: null };
  if (present.length < REQUIRED.length) {
    return { ok: false, problem: 'organisation, cost_centre and cost_centre_type must be given together.' };
  }
  const type = given.cost_centre_type as CostCentreType;
  if (!COST_CENTRE_TYPES.includes(type)) {
    return { ok: false, problem: `cost_centre_type must be one of ${COST_CENTRE_TYPES.join(', ')}.` };
  }
  if (!UUID.test(given.organisation ?? '') || !UUID.test(given.cost_centre ?? '')) {
    return { ok: false, problem: 'organisation and cost_centre are UUIDs.' };
  }
  return {
    ok: true,
    filter: {
      organisation: given.organisation ?? '',
      costCentre: given.cost_centre ?? '',
      costCentreType: type,
      depth,
    },
  };
};
