import { signedIn } from '#shared/auth/signed-in';
import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { correctTimes } from './corrections';
import { siteAttendances } from './definitions';

export { correctionDocument as requestBody } from './corrections';

/** PATCH /v3/site-attendances/{id}: corrects its times, keeping each value replaced, who and why. */
export const handler = jsonApiHandler('updateSiteAttendance', async (request) => {
  const attendance = await readInScope(request.scope, siteAttendances, request.params.site_attendance_id);
  const corrected = await correctTimes(
    { scope: request.scope, orgId: attendance.org_id, principal: signedIn(request.principal), attendance },
    request.body,
  );
  return resourceResponse(request, siteAttendances, corrected);
});
