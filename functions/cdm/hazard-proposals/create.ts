import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { hazardProposals, preConstructionInformation } from '#shared/resources/cdm/definitions';
import { createHazardProposal } from '#shared/resources/cdm/pre-construction';
import { resourceResponse } from '#shared/resources/single';

/** POST /v3/pre-construction-information/{id}/hazard-proposals: any appointed duty holder proposes a hazard. */
export const handler = jsonApiHandler('createHazardProposal', async (request) => {
  const { scope, params, principal, body } = request;
  const { record: pack, file } = await withCdmFile(
    scope,
    preConstructionInformation,
    params.pre_construction_information_id ?? '',
    principal,
  );
  const proposal = await createHazardProposal(scope, pack, file, body, callerOf(principal));
  return new Reply(201, await resourceResponse(request, hazardProposals, proposal), {
    Location: `${request.baseUrl}${hazardProposals.selfPath(proposal)}`,
  });
});
