import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';
import { callerOf, withCdmFile } from '#shared/resources/cdm/cdm-file';
import { constructionPhasePlans } from '#shared/resources/cdm/definitions';
import { createPlan } from '#shared/resources/cdm/plans';
import { schemes } from '#shared/resources/projects/definitions';
import { resourceResponse } from '#shared/resources/single';

/** POST /v3/orgs/{org_id}/projects/schemes/{scheme_id}/construction-phase-plan: the Principal Contractor's plan. */
export const handler = jsonApiHandler('createConstructionPhasePlan', async (request) => {
  const { scope, params, principal, body } = request;
  const { record: scheme, file } = await withCdmFile(scope, schemes, params.scheme_id ?? '', principal);
  const plan = await createPlan(scope, scheme, file, body, callerOf(principal));
  return new Reply(201, await resourceResponse(request, constructionPhasePlans, plan), {
    Location: `${request.baseUrl}${constructionPhasePlans.selfPath(plan)}`,
  });
});
