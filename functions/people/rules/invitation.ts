/**
 * Invitations to join an organisation: their lifetime, states and token. Pure.
 *
 * States: pending → accepted | revoked; a pending invitation past its `expires_at` is expired (shown so,
 * never stored so: nothing has to run when it lapses). Resending a pending or expired one issues a new
 * token, voids the old and starts a new lifetime.
 *
 * The token is `inv_<organisation id>.<invitation id>.<256 random bits>`: the ids say which record to
 * read (one GetItem, no index of tokens), and only the SHA-256 of the whole token is stored.
 */
export const INVITATION_DAYS_DEFAULT = 7;
export const INVITATION_DAYS_MAX = 30;

/** When an invitation given `days` of life at `now` expires. */
export const expiry = (now: Date, days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** The status a stored invitation shows at `now`. */
export const invitationStatus = (
  stored: { status: string; expires_at: string },
  now: Date,
): InvitationStatus =>
  stored.status === 'pending' && Date.parse(stored.expires_at) <= now.getTime()
    ? 'expired'
    : (stored.status as InvitationStatus);

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const TOKEN = new RegExp(`^inv_(${UUID})\\.(${UUID})\\.[A-Za-z0-9_-]{43}$`);

export const invitationToken = (orgId: string, invitationId: string, secret: string) =>
  `inv_${orgId}.${invitationId}.${secret}`;

/** The organisation and invitation a well-formed token names, or null. */
export const parseInvitationToken = (token: string): { orgId: string; invitationId: string } | null => {
  const match = TOKEN.exec(token);
  return match?.[1] && match[2] ? { orgId: match[1], invitationId: match[2] } : null;
};

/** What an inviter lacks of what an invitation would give: an inviter hands out only what it holds. */
export const beyondInviter = (given: ReadonlySet<string>, held: ReadonlySet<string>): string[] =>
  [...given].filter((permission) => !held.has(permission)).sort();
