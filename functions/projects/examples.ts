/** A body for each of the projects area's write routes (null: it takes none); see shared/engine/examples.ts. */
import { many, one, type RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createSchemeContract: (i) => ({
    data: { type: 'scheme-contracts', attributes: { name: 'North region', code: `${i.reference}-NR` } },
  }),
  updateSchemeContract: (i) => ({
    data: { type: 'scheme-contracts', id: i.scheme_contract_id, attributes: { name: 'Region' } },
  }),
  createScheme: (i) => ({
    data: {
      type: 'schemes',
      attributes: { name: 'Trunk main renewal' },
      relationships: {
        contracts: many('scheme-contracts', [i.scheme_contract_id]),
        site_managers: many('users', [i.person]),
      },
    },
  }),
  updateScheme: (i) => ({
    data: {
      type: 'schemes',
      id: i.scheme_id,
      attributes: { description: 'Reservoir outlet' },
      relationships: { site_managers: many('users', [i.person]) },
    },
  }),
  replaceScheme: (i) => ({
    data: { type: 'schemes', id: i.scheme_id, attributes: { name: 'Reservoir outlet works' } },
  }),
  createWorkOrder: (i) => ({
    data: {
      type: 'work-orders',
      attributes: { name: 'Section A' },
      relationships: { scheme: one('schemes', i.scheme_id) },
    },
  }),
  updateWorkOrder: (i) => ({
    data: { type: 'work-orders', id: i.work_order_id, attributes: { name: 'Section A1' } },
  }),
  createOperation: (i) => ({
    data: {
      type: 'operations',
      attributes: { name: 'Excavate', status: 'todo' },
      relationships: { work_order: one('work-orders', i.work_order_id) },
    },
  }),
  updateOperation: (i) => ({
    data: { type: 'operations', id: i.operation_id, attributes: { name: 'Excavate trench' } },
  }),
  restoreSchemeContract: null,
  restoreScheme: null,
  restoreWorkOrder: null,
  restoreOperation: null,
};
