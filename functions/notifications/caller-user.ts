import type { Principal } from '#shared/auth/principal';
import { ForbiddenError, UnauthorisedError } from '#shared/jsonapi/errors';

/**
 * The user whose own notifications a request reads or changes: the caller. A service account has no
 * inbox and no preferences (nothing is addressed to it), so its request is 403, said plainly.
 */
export const callerUserId = (principal: Principal | null | undefined): string => {
  if (!principal) throw new UnauthorisedError();
  if (principal.kind !== 'user')
    throw new ForbiddenError(
      'Service accounts have no inbox and no notification preferences: notifications are addressed to users.',
    );
  return principal.id;
};
