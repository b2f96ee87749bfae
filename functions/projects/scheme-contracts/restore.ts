import { restoreHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

/** POST /v3/orgs/{org_id}/projects/scheme-contracts/{scheme_contract_id}/restore: back to its place in the tree. */
export const handler = restoreHandler(
  'restoreSchemeContract',
  nodeCrud('scheme-contracts'),
  'scheme_contract_id',
);
