import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { createAward } from './awards';
import { qualificationAwards } from './definitions';

export { createAwardDocument as requestBody } from './awards';

/**
 * POST /v3/orgs/{org_id}/qualifications/awards: 201, the award pending approval; its expiry from the
 * type's validity period when not given (400 when the type expires and neither is known).
 */
export const handler = jsonApiHandler('createQualificationAward', async (request) => {
  const { org_id } = request.params;
  const award = await createAward(request.scope, org_id, request.body, request.principal);
  return created(await resourceResponse(request, qualificationAwards, award));
});
