import { updateHandler } from '#shared/http/crud-handlers';
import { nodeCrud } from '#shared/resources/projects/hierarchy';

/** PATCH /v3/orgs/{org_id}/projects/scheme-contracts/{scheme_contract_id}: partial update */
export const handler = updateHandler(
  'updateSchemeContract',
  nodeCrud('scheme-contracts'),
  'scheme_contract_id',
);
