/** Whose inbox a request reads: always the caller's own, a user's; a service account has none. */
import type { ApiRequest } from '#shared/http/json-api-handler';
import { ForbiddenError, NotFoundError, UnauthorisedError } from '#shared/jsonapi/errors';
import type { StoredEnvelope } from './inbox-state';

export interface InboxOwner {
  userId: string;
  /** The organisations the caller belongs to now: envelopes of any other are not shown. */
  organisations: ReadonlySet<string>;
}

export const inboxOwner = (request: Pick<ApiRequest, 'principal' | 'scope'>): InboxOwner => {
  const { principal } = request;
  if (!principal) throw new UnauthorisedError();
  if (principal.kind !== 'user')
    throw new ForbiddenError('Service accounts have no inbox: notifications are addressed to users.');
  return { userId: principal.id, organisations: new Set(request.scope.orgIds) };
};

/** The envelope, if it is the owner's and of an organisation they still belong to; else 404. */
export const ownEnvelope = (owner: InboxOwner, envelope: StoredEnvelope | null): StoredEnvelope => {
  if (!envelope || envelope.user_id !== owner.userId || !owner.organisations.has(envelope.org_id))
    throw new NotFoundError();
  return envelope;
};
