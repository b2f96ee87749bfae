/**
 * The nodes of the work hierarchy a cost sheet may cost, as its four relationships (exactly one is set).
 * Pure, below the declarations, so what a sheet's moves write (`node-totals.ts`, loaded when a move is made)
 * reads them without importing the declarations that name those moves.
 */
export const costCentreRelationships = {
  scheme_contract: { type: 'scheme-contracts' },
  scheme: { type: 'schemes' },
  work_order: { type: 'work-orders' },
  operation: { type: 'operations' },
} as const;
