import { jsonApiHandler } from '#shared/http/json-api-handler';
import { schemeContracts } from '#shared/resources/projects/definitions';
import { nodeCrud } from '#shared/resources/projects/hierarchy';
import { resourceResponse } from '#shared/resources/single';

const crud = nodeCrud('scheme-contracts');

/** POST /v3/orgs/{org_id}/projects/scheme-contracts/{scheme_contract_id}/restore: brings a soft-deleted node back to its place in the tree. */
export const handler = jsonApiHandler('restoreSchemeContract', async (request) => {
  const restored = await crud.restore(
    request.scope,
    request.params.org_id ?? '',
    request.params.scheme_contract_id ?? '',
  );
  return resourceResponse(request, schemeContracts, restored);
});
