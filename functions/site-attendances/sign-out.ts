import { signedIn } from '#shared/auth/principal';
import { readInScope, resourceResponse } from '#shared/engine/single';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { recordAhead } from '#shared/http/middlewares/authorisation';
import { siteAttendances } from './definitions';
import { signOut } from './sign-out-writes';

/** POST /v3/site-attendances/{id}/sign-out: the attendance ends now (409 if it has ended). */
export const handler = jsonApiHandler(
  'signOutSiteAttendance',
  async (request) => {
    const attendance = await readInScope(request.scope, siteAttendances, request.params.site_attendance_id);
    return resourceResponse(
      request,
      siteAttendances,
      await signOut(request.scope, attendance, signedIn(request.principal)),
    );
  },
  recordAhead(siteAttendances, 'site_attendance_id'),
);
