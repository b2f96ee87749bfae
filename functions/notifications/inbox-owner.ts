/** Whose inbox a request reads: always the caller's own, a user's; a service account has none. */
import type { ApiRequest } from '#shared/http/json-api-handler';
import { NotFoundError } from '#shared/jsonapi/errors';
import { callerUserId } from './caller-user';
import { inInbox, type StoredEnvelope } from './inbox-state';

export interface InboxOwner {
  userId: string;
  /** The organisations the caller belongs to now: envelopes of any other are not shown. */
  organisations: ReadonlySet<string>;
}

export const inboxOwner = (request: Pick<ApiRequest, 'principal' | 'scope'>): InboxOwner => {
  return { userId: callerUserId(request.principal), organisations: new Set(request.scope.orgIds) };
};

/** Whether the envelope is one of the owner's inbox: theirs, in it, and of an organisation they still belong to. */
export const isOwn = (owner: InboxOwner, envelope: StoredEnvelope | null): envelope is StoredEnvelope =>
  envelope !== null &&
  envelope.user_id === owner.userId &&
  owner.organisations.has(envelope.org_id) &&
  inInbox(envelope);

/** The envelope, if it is one of the owner's inbox (`isOwn`); else 404. */
export const ownEnvelope = (owner: InboxOwner, envelope: StoredEnvelope | null): StoredEnvelope => {
  if (!isOwn(owner, envelope)) throw new NotFoundError();
  return envelope;
};
