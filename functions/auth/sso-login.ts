/**
 * Signing in through an organisation's SSO provider (OIDC authorization code with PKCE):
 *
 * - `beginSsoLogin` (GET /v3/sso/{oidc_identifier}/authorize): finds the provider by its identifier,
 *   keeps the sign-in's state, nonce and PKCE verifier for 5 minutes (`data/login-states.ts`) and names
 *   the provider's authorization URL. An invitation's token may ride along: the sign-in then accepts it.
 *   So may a `return_to`, checked here against the provider's allow-list (400 when it is not listed) and
 *   kept with the state: the callback then sends the browser there.
 * - `finishSsoLogin` (GET /v3/sso/callback): takes the state (once), exchanges the code and verifies the
 *   ID token (`auth/oidc-login.ts`), refuses an `email` claim that is not an address as invitations take
 *   them (403), then finds the user by the identity (provider and subject), or links
 *   the organisation's user with the verified address, or makes one (just in time, with the provider's
 *   default role) when the address's domain is one the provider allows; an accepted invitation makes the
 *   user instead. Then a session starts, for the organisation's session lifetime. A confidential client
 *   authenticates to the token endpoint with its secret, decrypted only for the exchange.
 */

import * as z from 'zod';
import { type StoredSsoProvider, ssoProviders } from '#functions/iam/definitions';
import { grantRecord } from '#functions/iam/grant-writes';
import { emailDomainAllowed } from '#functions/iam/rules/sso-domains';
import { oidcIdentifierKey } from '#functions/iam/sso-providers';
import { hashInvitationToken, invitationOfToken } from '#functions/people/invitation-writes';
import { invitations } from '#functions/people/invitations';
import { heldOnRecord, joinFromInvitation, newUserRecord } from '#functions/people/joining';
import { invitationStatus } from '#functions/people/rules/invitation';
import { users } from '#functions/people/users';
import { beginLogin, finishLogin, OidcLoginError } from '#shared/auth/oidc-login';
import { config } from '#shared/config';
import { declareAccessPatterns, keyFrom } from '#shared/data/access-patterns';
import { uuidv7 } from '#shared/data/ids';
import { putLoginState, takeLoginState } from '#shared/data/login-states';
import { settingsKey, settingsOf } from '#shared/data/organisation-settings';
import { userPrincipal } from '#shared/data/principals';
import { batchGetInScope, getItem, queryIndexPrefix } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import { openClientSecret } from '#shared/data/sso-client-secrets';
import type { StoredResource } from '#shared/data/stored-resource';
import { tenantPattern } from '#shared/data/stored-resource';
import { commit, type WriteOp, WriteRefused } from '#shared/data/transaction';
import { allowedReturnTo } from '#shared/domain/return-to';
import { indexed } from '#shared/engine/stored';
import { routePath } from '#shared/http/links';
import { email } from '#shared/jsonapi/attribute-types';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '#shared/jsonapi/errors';
import { type SignedIn, signIn } from './signed-in';

/** Where the provider sends the browser back: the API's own URL and the callback's route. */
const redirectUri = () => `${config.TOKEN_ISSUER}${routePath('finishSsoLogin')}`;

/** Which user an identity (provider, subject) signs in as: a claim, held by the user. */
const keys = /* @__PURE__ */ declareAccessPatterns('auth/sso-login', {
  identity: {
    ...tenantPattern('identities', '{provider_id}#{sub}'),
    about: '`holder_id`: the user an identity signs in as',
  },
});
const identityClaim = (orgId: string, providerId: string, sub: string) =>
  keyFrom(keys.identity, { org_id: orgId, provider_id: providerId, sub });

const providerOf = async (identifier: string) => {
  const entry = /^oidc_[0-9a-f]{24}$/.test(identifier)
    ? await getItem<{ org_id: string; holder_id: string }>(oidcIdentifierKey(identifier))
    : null;
  const scope = scopeOf(entry ? [entry.org_id] : []);
  const [provider] = entry
    ? await batchGetInScope(scope, [ssoProviders.keyOf(entry.org_id, entry.holder_id)])
    : [];
  if (!provider) throw new NotFoundError('No SSO provider with this identifier.');
  const clientId = provider.attributes.client_id;
  if (typeof clientId !== 'string')
    throw new ConflictError(
      'This SSO provider has no client_id yet: an administrator of the organisation sets it.',
    );
  return { provider, clientId, metadata: String(provider.attributes.metadata) };
};

export const authorizeQuery = z.strictObject({ invitation: z.string().max(200).optional() });

const allowList = (provider: StoredResource): string[] =>
  Array.isArray(provider.attributes.return_to_allow_list)
    ? provider.attributes.return_to_allow_list.map(String)
    : [];

/** Where the callback will send the browser: a URL the provider's allow-list names, or a 400 now. */
const checkedReturnTo = (provider: StoredResource, returnTo: string): string => {
  const allowed = allowedReturnTo(returnTo, allowList(provider));
  if (allowed === null)
    throw new ValidationError({
      detail:
        'return_to must be an address this SSO provider lists in its return_to_allow_list (same origin, a path under a listed one).',
      source: { parameter: 'return_to' },
    });
  return allowed;
};

/**
 * The provider's authorization URL for a new sign-in (and, with an invitation's token, its acceptance;
 * with a `return_to`, where the callback sends the browser once signed in).
 */
export const beginSsoLogin = async (
  identifier: string,
  { invitation: invitationToken, returnTo }: { invitation?: string; returnTo?: string } = {},
): Promise<string> => {
  const { provider, clientId, metadata } = await providerOf(identifier);
  const returnToChecked = returnTo === undefined ? undefined : checkedReturnTo(provider, returnTo);
  let invitation: StoredResource | undefined;
  if (invitationToken !== undefined) {
    invitation = await invitationOfToken(invitationToken);
    const status = invitationStatus(
      invitation.attributes as { status: string; expires_at: string },
      new Date(),
    );
    if (status !== 'pending') throw new ConflictError(`This invitation is ${status}.`);
    const named = invitation.rels.sso_provider;
    if (invitation.org_id !== provider.org_id || (typeof named === 'string' && named !== provider.id))
      throw new ConflictError('This invitation is accepted through another SSO provider.');
  }
  const login = await beginLogin({ metadata, clientId, redirectUri: redirectUri() });
  await putLoginState(login.state, {
    org_id: provider.org_id,
    provider_id: provider.id,
    nonce: login.nonce,
    code_verifier: login.codeVerifier,
    ...(returnToChecked !== undefined && { return_to: returnToChecked }),
    ...(invitation &&
      invitationToken && {
        invitation_id: invitation.id,
        invitation_hash: hashInvitationToken(invitationToken),
      }),
  });
  return login.authorizationUrl;
};

const refused = (detail: string) => new ForbiddenError(detail);

/** A sign-in finished: the session, and where to send the browser if the sign-in began with `return_to`. */
export type SsoSignedIn = SignedIn & { returnTo?: string };

export const finishSsoLogin = async (callbackUrl: string, now = new Date()): Promise<SsoSignedIn> => {
  const state = new URL(callbackUrl).searchParams.get('state') ?? '';
  const login = /^[A-Za-z0-9_-]{1,128}$/.test(state) ? await takeLoginState(state, now.getTime()) : null;
  // No sign-in of ours waits with this state: already finished, expired, or never begun here.
  if (!login) throw new OidcLoginError('state_mismatch');
  const scope = scopeOf([login.org_id]);
  const [provider]: (StoredSsoProvider | undefined)[] = await batchGetInScope(scope, [
    ssoProviders.keyOf(login.org_id, login.provider_id),
  ]);
  // Deleted (or its client id removed) since the sign-in began: nothing to finish it with.
  if (!provider || typeof provider.attributes.client_id !== 'string')
    throw new OidcLoginError('provider_error');
  // Still allowed by the provider as it is now (its allow-list may have changed in flight).
  const returnTo = login.return_to === undefined ? undefined : checkedReturnTo(provider, login.return_to);
  const ciphertext = provider.client_secret_ciphertext;
  const claims = await finishLogin({
    metadata: String(provider.attributes.metadata),
    clientId: provider.attributes.client_id,
    ...(ciphertext && {
      clientSecret: await openClientSecret(ciphertext, {
        org_id: provider.org_id,
        sso_provider_id: provider.id,
      }),
    }),
    redirectUri: redirectUri(),
    callbackUrl,
    expected: { state, nonce: login.nonce, codeVerifier: login.code_verifier },
  });
  const address = claims.email?.toLowerCase();
  if (!address || claims.email_verified === false)
    throw refused('The identity provider gave no verified e-mail address for this account.');
  // The address decides the domain check and the user it links: one invitations would take, or none
  // (`x@evil.test@northmere.example` is not an address at northmere.example).
  if (!email().safeParse(address).success)
    throw refused('The identity provider gave an e-mail address that is not a valid address.');

  const user = login.invitation_id
    ? await acceptThroughProvider(login, address, claims, now)
    : await userOfIdentity(provider, claims.sub, address, claims, now);
  if (user.attributes.status !== undefined && user.attributes.status !== 'active')
    throw refused(`This user is ${user.attributes.status} in the organisation.`);
  const [stored] = await batchGetInScope(scope, [settingsKey(login.org_id)]);
  const signedIn = await signIn(user, settingsOf(stored ?? null), now);
  return returnTo === undefined ? signedIn : { ...signedIn, returnTo };
};

interface Claims {
  sub: string;
  given_name?: string;
  family_name?: string;
  name?: string;
}

/** The identity as the user record lists it (the spec's `identities`). */
const identityOf = (provider: StoredResource, sub: string, now: Date) => ({
  id: uuidv7(now.getTime()),
  platform: 'oidc',
  meta: { sso_provider: provider.id, sub },
});

/** The invitation the sign-in carries, accepted as the signed-in address, with the identity linked. */
const acceptThroughProvider = async (
  login: { org_id: string; provider_id: string; invitation_id?: string; invitation_hash?: string },
  address: string,
  claims: Claims,
  now: Date,
): Promise<StoredResource> => {
  const scope = scopeOf([login.org_id]);
  const [invitation] = await batchGetInScope(scope, [
    invitations.keyOf(login.org_id, String(login.invitation_id)),
  ]);
  if (!invitation || (invitation as { token_hash?: string }).token_hash !== login.invitation_hash)
    throw new ConflictError('The invitation was accepted, resent or revoked meanwhile.');
  if (String(invitation.attributes.email) !== address)
    throw refused(
      `The invitation is for another address than the one this account signs in with (${address}).`,
    );
  const [provider] = await batchGetInScope(scope, [ssoProviders.keyOf(login.org_id, login.provider_id)]);
  if (!provider) throw new OidcLoginError('provider_error');
  const user = await joinFromInvitation(
    invitation,
    { first_name: claims.given_name, last_name: claims.family_name },
    now,
  );
  return linkIdentity(provider, user, claims.sub, now);
};

/** Adds the identity to a user, and its claim: a later sign-in finds the user by it. */
const linkIdentity = async (provider: StoredResource, user: StoredResource, sub: string, now: Date) => {
  const identities = Array.isArray(user.attributes.identities) ? user.attributes.identities : [];
  const next = indexed(users, {
    ...user,
    attributes: { ...user.attributes, identities: [...identities, identityOf(provider, sub, now)] },
    meta: { ...user.meta, updated_at: now.toISOString() },
    version: user.version + 1,
  });
  await commit(scopeOf([user.org_id], undefined, { kind: 'user', id: user.id }), [
    { replace: next, was: user },
    { claim: { ...identityClaim(user.org_id, provider.id, sub), holder_id: user.id } },
  ]).catch(raced);
  return next;
};

const raced = (error: unknown): never => {
  throw error instanceof WriteRefused
    ? new ConflictError('The user changed while signing in; sign in again.')
    : error;
};

/**
 * The user an identity signs in as: the one it was linked to; else the organisation's user with the
 * verified address (linked now); else a new user, made just in time with the provider's default role.
 * Without an invitation, an address outside the provider's allowed domains is refused.
 */
const userOfIdentity = async (
  provider: StoredResource,
  sub: string,
  address: string,
  claims: Claims,
  now: Date,
): Promise<StoredResource> => {
  const orgId = provider.org_id;
  const scope = scopeOf([orgId]);
  const allowed = Array.isArray(provider.attributes.allowed_domains)
    ? provider.attributes.allowed_domains.map(String)
    : [];
  if (!emailDomainAllowed(address, allowed))
    throw refused(`People with ${address.split('@')[1]} addresses do not sign in through this provider.`);
  const linked = await getItem<{ holder_id: string }>(identityClaim(orgId, provider.id, sub));
  if (linked) {
    const [user] = await batchGetInScope(scope, [users.keyOf(orgId, linked.holder_id)]);
    if (user) return user;
  }
  const existing = (await queryIndexPrefix(scope, orgId, users.type, 'lsi2', address)).find(
    (u) => String(u.attributes.email).toLowerCase() === address,
  );
  if (existing) return linkIdentity(provider, existing, sub, now);
  return provisionUser(provider, sub, address, claims, now);
};

/** A user made at first sign-in: the record, principal, identity claim and default role's grant together. */
const provisionUser = async (
  provider: StoredResource,
  sub: string,
  address: string,
  claims: Claims,
  now: Date,
) => {
  const orgId = provider.org_id;
  const id = uuidv7(now.getTime());
  const role = String(provider.rels.default_role ?? 'viewer');
  const grant = grantRecord(orgId, { role, user: id }, now);
  const { names, ops: holding, read } = await heldOnRecord(scopeOf([orgId]), id, [grant]);
  const first = claims.given_name ?? claims.name ?? address.split('@')[0] ?? address;
  const last = claims.family_name ?? '';
  const user: StoredResource = {
    ...newUserRecord(orgId, id, now, {
      email: address,
      first,
      last,
      identities: [identityOf(provider, sub, now)],
    }),
    ...names,
  };
  const ops: WriteOp[] = [
    { create: user },
    { put: userPrincipal(id, `${first} ${last}`.trim()) },
    { claim: { ...identityClaim(orgId, provider.id, sub), holder_id: id } },
    { create: grant },
    ...holding,
    ...read.map((custom): WriteOp => ({ check: { pk: custom.pk, sk: custom.sk } })),
  ];
  await commit(scopeOf([orgId], undefined, { kind: 'user', id }), ops).catch(raced);
  return user;
};
