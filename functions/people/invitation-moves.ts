/**
 * An invitation's token and e-mail, and its moves' work and writes: `resend` (pending or expired →
 * pending: a new token by e-mail, the old one void) and `revoke` (→ revoked: the token stops working and
 * the address may be invited again). Apart from `invitation-writes.ts` so the declaration
 * (`invitations.ts`) names them without importing the writes that import it; it loads this module when
 * a move runs, so a read's cold start carries none of it (the e-mail, the claims, the single-record reads).
 */
import { createHash, randomBytes } from 'node:crypto';
import { organisations } from '#functions/organisations/definitions';
import { config } from '#shared/config';
import { sendEmail } from '#shared/data/email';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import type { MoveWork, MoveWrites } from '#shared/engine/lifecycle';
import { readInScope } from '#shared/engine/single';
import { ConflictError } from '#shared/jsonapi/errors';
import { addressClaim, releaseClaim } from './joining';
import { invitationToken } from './rules/invitation';

export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export const newToken = (orgId: string, invitationId: string) =>
  invitationToken(orgId, invitationId, randomBytes(32).toString('base64url'));

/** The e-mail that carries the token: where to accept, by when, and what the invitation is for. */
const invitationEmail = (invitation: StoredResource, token: string, organisation: string) => {
  const link = `${config.APP_URL}/accept-invitation?token=${encodeURIComponent(token)}`;
  const expires = String(invitation.attributes.expires_at).slice(0, 16).replace('T', ' ');
  return {
    to: String(invitation.attributes.email),
    subject: `You are invited to join ${organisation}`,
    text: [
      `You have been invited to join ${organisation}.`,
      '',
      `Accept the invitation here (the link works once, until ${expires} UTC):`,
      link,
      '',
      `Or send this token to POST /v3/invitations/accept: ${token}`,
      '',
      'If you did not expect this invitation, ignore this e-mail.',
    ].join('\n'),
  };
};

/** Sends the token; the invitation is saved whatever happens, so a failure says to resend it. */
export const send = async (invitation: StoredResource, token: string, organisation: string) => {
  await sendEmail(invitationEmail(invitation, token, organisation)).catch((error: unknown) => {
    throw new ConflictError(
      `The invitation is saved, but its e-mail could not be sent (${error instanceof Error ? error.name : 'error'}): resend it.`,
    );
  });
};

/** A new token, stored as its hash; it goes out by e-mail once the move is committed, never before. */
export const newTokenWork = async (scope: Scope, invitation: StoredResource): Promise<MoveWork> => {
  const token = newToken(invitation.org_id, invitation.id);
  return {
    stored: { token_hash: hashInvitationToken(token) },
    after: async (written) => {
      const organisation = await readInScope(scope, organisations, written.org_id);
      await send(written, token, String(organisation.attributes.name));
    },
  };
};

/** The address claimed again for the new lifetime: an expired one's may meanwhile be another invitation's. */
export const claimRenewed = (moved: StoredResource): MoveWrites => ({
  conflicts: [
    {
      op: { claim: addressClaim(moved) },
      detail: 'A newer invitation to this address is pending; resend that one.',
    },
  ],
});

/** A revoked invitation keeps no token: the one it sent stops working. */
export const voidToken = async (): Promise<MoveWork> => ({ stored: { token_hash: null } });

/** The address given back while its claim is still this invitation's (not once another took it). */
export const releasedClaim = (
  _moved: StoredResource,
  before: StoredResource,
  { now }: { now: Date },
): MoveWrites => ({ ops: releaseClaim(before, now) });
