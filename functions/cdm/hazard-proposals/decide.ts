import { jsonApiHandler } from '#shared/http/json-api-handler';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { hazardProposals, preConstructionInformation } from '#shared/resources/cdm/definitions';
import { decideHazardProposal } from '#shared/resources/cdm/pre-construction';
import { readInScope, resourceResponse } from '#shared/resources/single';

/** PATCH /v3/hazard-proposals/{id}: the Client accepts (the hazard is created) or rejects with a reason. */
export const handler = jsonApiHandler('decideHazardProposal', async (request) => {
  const { scope, params, principal, body } = request;
  const { record, file } = await withCdmFile(
    scope,
    hazardProposals,
    params.hazard_proposal_id ?? '',
    principal,
  );
  const pack = await readInScope(
    scope,
    preConstructionInformation,
    String(record.rels.pre_construction_information),
  );
  const next = await decideHazardProposal(scope, record, pack, file, body, callerOf(principal));
  return resourceResponse(request, hazardProposals, next);
});
