/** A body for each of the costs area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { one, type RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createRateCode: (i) => ({
    data: {
      type: 'rate-codes',
      attributes: { code: `${i.reference}-LAB`, name: 'Gang day', category: 'labour' },
    },
  }),
  createRateCodeVersion: () => ({
    data: {
      type: 'rate-code-versions',
      attributes: {
        valid_from: '2026-01-01T00:00:00Z',
        cost: { amount: 80_000, currency: 'GBP' },
        charge: { amount: 100_000, currency: 'GBP' },
      },
    },
  }),
  createCostSheet: (i) => ({
    data: {
      type: 'cost-sheets',
      attributes: { name: 'Section A', status: 'quoted' },
      relationships: { work_order: one('work-orders', i.work_order_id) },
    },
  }),
  updateCostSheet: (i) => ({
    data: { type: 'cost-sheets', id: i.cost_sheet_id, attributes: { name: 'Section A (revised)' } },
  }),
  approveCostSheet: null,
  completeCostSheet: null,
  reopenCostSheet: null,
  requoteCostSheet: null,
  createCostLine: (i) => ({
    data: {
      type: 'cost-lines',
      attributes: { kind: 'actual', quantity: 2, at: '2026-06-01T00:00:00Z' },
      relationships: { rate_code: one('rate-codes', i.rate_code_id) },
    },
  }),
};
