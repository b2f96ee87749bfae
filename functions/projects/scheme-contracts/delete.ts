import { deleteHandler } from '#shared/engine/crud-handlers';
import { nodeCrud } from '../hierarchy';

/** DELETE /v3/orgs/{org_id}/projects/scheme-contracts/{scheme_contract_id}: 204; soft, restorable with POST …/restore */
export const handler = deleteHandler(
  'deleteSchemeContract',
  nodeCrud('scheme-contracts'),
  'scheme_contract_id',
);
