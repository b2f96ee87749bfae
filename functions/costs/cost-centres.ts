/**
 * The nodes of the work hierarchy a cost sheet may cost, as its four relationships (exactly one is set).
 * Apart from the declarations so what a sheet's moves write (node-totals.ts) reads them without importing
 * the declarations that name those moves.
 */
export const costCentreRelationships = {
  scheme_contract: { type: 'scheme-contracts' },
  scheme: { type: 'schemes' },
  work_order: { type: 'work-orders' },
  operation: { type: 'operations' },
} as const;
