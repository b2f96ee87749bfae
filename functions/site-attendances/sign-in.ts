import { signedIn } from '#shared/auth/signed-in';
import { resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { created } from '#shared/http/reply';
import { siteAttendances } from './definitions';
import { signIn } from './sign-in-writes';

export { signInDocument as requestBody } from './sign-in-writes';

/**
 * POST /v3/orgs/{org_id}/site-attendances: signs someone in at a site, at the server's time. 409 when the
 * gate refuses (a missing induction, or qualifications the site requires) unless overridden with a reason,
 * or when they are signed in there already.
 */
export const handler = jsonApiHandler('createSiteAttendance', async (request) => {
  const principal = signedIn(request.principal);
  const { scope, params } = request;
  const attendance = await signIn({ scope, orgId: params.org_id, principal }, request.body);
  return created(await resourceResponse(request, siteAttendances, attendance));
});
