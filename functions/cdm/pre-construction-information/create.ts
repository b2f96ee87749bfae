import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { preConstructionInformation } from '#shared/resources/cdm/definitions';
import { createPack } from '#shared/resources/cdm/pre-construction';
import { schemes } from '#shared/resources/projects/definitions';
import { resourceResponse } from '#shared/resources/single';

/** POST /v3/orgs/{org_id}/projects/schemes/{scheme_id}/pre-construction-information: the Client's pack (one per scheme). */
export const handler = jsonApiHandler('createPreConstructionInformation', async (request) => {
  const { scope, params, principal, body } = request;
  const { record: scheme, file } = await withCdmFile(scope, schemes, params.scheme_id ?? '', principal);
  const pack = await createPack(scope, scheme, file, body, callerOf(principal));
  return new Reply(201, await resourceResponse(request, preConstructionInformation, pack), {
    Location: `${request.baseUrl}${preConstructionInformation.selfPath(pack)}`,
  });
});
