/**
 * Who is calling and what they may do. Authentication resolves a credential to a principal record
 * (read on every request, never cached, so a disabled key or account stops at once: with the session
 * and any record the route reads ahead, one BatchGetItem); its effective permissions
 * come from the grants it holds, directly or through teams (one Query of its own partition, then the
 * custom roles and groups they name), and are cached per warm container for GRANT_CACHE_SECONDS, so a revoked grant
 * stops working within that time. Authorisation turns them and the route's permission into the scope.
 *
 * Every credential names its principal before anything is read (a bearer token's verified `sub`, a
 * session token's prefix), so the grants Query goes out beside the BatchGetItem, not after it (issue 42:
 * a cold container's first request waits one round trip less). The permissions are used only once the
 * record read beside them says the credential is good; a refused credential's grants are read and dropped.
 */
import { config } from '../config';
import { heldGrantsOf, type PrincipalRecord, principalKey } from '../data/principals';
import { getItem, live, readTogether } from '../data/repository';
import type { Actor, Scope } from '../data/scope';
import { scopeOf } from '../data/scope';
import { type SessionRecord, sessionKey } from '../data/sessions';
import { type ItemKey, keyId } from '../data/stored-resource';
import type { EffectivePermissions } from '../domain/effective-permissions';
import type { Permission } from '../domain/permissions';
import { ForbiddenError, NotFoundError, UnauthorisedError } from '../jsonapi/errors';
import { permissionsOfGrants } from './grant-permissions';
import type { AuthScheme } from './schemes';
import { hashSessionToken, SESSION_HEADER, sessionCookie, sessionPrincipal } from './sessions';
import { verifyAccessToken } from './verify-access-token';

export interface Principal {
  id: string;
  kind: PrincipalRecord['kind'];
  name: string;
  /** Effective permissions by organisation; an organisation with a grant appears even with no permission. */
  permissions: EffectivePermissions;
  /** A user's teams, by organisation (duty-holder appointments may name a team). */
  teams: Readonly<Record<string, readonly string[]>>;
}

type Headers = Readonly<Record<string, string | undefined>>;

const cache = new Map<string, { expires: number; permissions: EffectivePermissions }>();
/**
 * Each principal's permissions as this container last evaluated them, by principal id alone: known from
 * the credential before anything is read, they name the organisations a record whose path gives none may
 * lie in, so it can be read with the credentials (a hint only: the scope still decides what is kept).
 */
const lastKnown = new Map<string, { expires: number; permissions: EffectivePermissions }>();
/** How long such a hint is used: a stale one costs a read, never access (the scope decides), so longer. */
const HINT_SECONDS = 900;

/** The permissions this warm container last evaluated for a principal, if still fresh. */
export const knownPermissions = (principalId: string): EffectivePermissions | undefined => {
  const known = lastKnown.get(principalId);
  return known && known.expires > Date.now() ? known.permissions : undefined;
};

/** `consistent`: read the grants as of now (work that runs later under someone's identity asks so). */
const loadPermissions = async (principalId: string, consistent = false): Promise<EffectivePermissions> =>
  (await permissionsOfGrants(await heldGrantsOf(principalId, consistent))).permissions;

/** The principal's permissions from the cache, or evaluated now (`evaluated`: when, for `remember`). */
const permissionsOf = async (
  principalId: string,
): Promise<{ permissions: EffectivePermissions; evaluated?: number }> => {
  const cached = cache.get(principalId);
  if (cached && cached.expires > Date.now()) return { permissions: cached.permissions };
  const permissions = await loadPermissions(principalId);
  return { permissions, evaluated: Date.now() };
};

/**
 * Caches permissions evaluated afresh, once the credential they were read for has held: a refused
 * credential names any principal id it likes, and caching for it would let anyone fill the maps.
 */
const remember = (
  principalId: string,
  { permissions, evaluated }: Awaited<ReturnType<typeof permissionsOf>>,
) => {
  if (evaluated === undefined) return;
  cache.set(principalId, { expires: evaluated + config.GRANT_CACHE_SECONDS * 1000, permissions });
  lastKnown.set(principalId, { expires: evaluated + HINT_SECONDS * 1000, permissions });
};

/**
 * A principal as it stands now, read consistently and evaluated afresh (no container cache): null when it
 * is gone or disabled (a suspended user, a disabled or deleted service account). Work that runs later under
 * someone's identity (a job's chunks) asks this before each step, so a revoked grant stops it there.
 */
export const currentPrincipal = async (id: string): Promise<Principal | null> => {
  const record = await getItem<PrincipalRecord>(principalKey(id), true);
  if (!record?.enabled) return null;
  return {
    id: record.id,
    kind: record.kind,
    name: record.name,
    permissions: await loadPermissions(record.id, true),
    teams: record.teams ?? {},
  };
};

const bearerToken = (headers: Headers): string | null => {
  const match = /^Bearer ([A-Za-z0-9_.~+/-]+=*)$/.exec(headers.authorization ?? '');
  return match?.[1] ?? null;
};

/**
 * The credential's records and those read ahead, in one round trip, beside the principal's permissions;
 * `read` keeps only the records read ahead.
 */
const readWith = async (principalId: string, keys: ItemKey[], readAhead: readonly ItemKey[]) => {
  const [read, permissions] = await Promise.all([
    readTogether([...keys, ...readAhead]),
    permissionsOf(principalId),
  ]);
  const taken = keys.map((key) => {
    const item = read.get(keyId(key));
    read.delete(keyId(key));
    return item;
  });
  return { taken, read, permissions };
};

/** The records a request reads ahead, named once the credential says whose it is (see `authenticate`). */
type AheadOf = (principalId: string) => readonly ItemKey[];

const fromSession = async (token: string, aheadOf: AheadOf) => {
  const principalId = sessionPrincipal(token);
  if (!principalId) throw new UnauthorisedError('The session is invalid or has expired; sign in again.');
  const { taken, read, permissions } = await readWith(
    principalId,
    [sessionKey(hashSessionToken(token)), principalKey(principalId)],
    aheadOf(principalId),
  );
  const [session, record] = taken as [SessionRecord | null, PrincipalRecord | null];
  if (
    !session ||
    !live(session) ||
    session.principal_id !== principalId ||
    (record?.sessions_after !== undefined && session.created_at <= record.sessions_after)
  )
    throw new UnauthorisedError('The session is invalid or has expired; sign in again.');
  if (!record?.enabled || record.kind !== 'user')
    throw new UnauthorisedError('The user behind this session is suspended or deactivated.');
  return { record, read, permissions };
};

const fromAccessToken = async (token: string, aheadOf: AheadOf) => {
  const verified = await verifyAccessToken(token).catch(() => {
    throw new UnauthorisedError('The access token is invalid or expired; request a new one.');
  });
  const { taken, read, permissions } = await readWith(
    verified.principalId,
    [principalKey(verified.principalId)],
    aheadOf(verified.principalId),
  );
  const [record] = taken as [PrincipalRecord | null];
  if (!record?.enabled || record.keys[verified.clientId]?.enabled !== true) {
    throw new UnauthorisedError('The credentials behind this token are disabled or deleted.');
  }
  return { record, read, permissions };
};

/**
 * Resolves the request's one credential under the schemes the route accepts: a bearer access token
 * (OAuth2), an `X-Session-Token` header (Session) or the session cookie (Cookie). Sending more than one
 * is refused rather than guessing which was meant. `readAhead` names, from the permissions this container
 * last knew for the caller (none when cold), keys read in the same round trip as the credential's records;
 * they come back unexamined, for the scope to hand out (see `Scope`).
 */
export const authenticate = async (
  headers: Headers,
  cookies: readonly string[] | undefined,
  schemes: readonly AuthScheme[],
  readAhead: (known: EffectivePermissions | undefined) => readonly ItemKey[] = () => [],
): Promise<{ principal: Principal; readAhead: Map<string, unknown> }> => {
  const presented = [
    headers.authorization !== undefined && { scheme: 'OAuth2' as const, token: bearerToken(headers) },
    headers[SESSION_HEADER] !== undefined && {
      scheme: 'Session' as const,
      token: headers[SESSION_HEADER] ?? null,
    },
    sessionCookie(cookies) !== undefined && {
      scheme: 'Cookie' as const,
      token: sessionCookie(cookies) ?? null,
    },
  ].filter((p) => p !== false);
  const [credential, extra] = presented;
  if (!credential) throw new UnauthorisedError('No credentials were sent.');
  if (extra)
    throw new UnauthorisedError(
      'Send one credential: a bearer token, a session token or the session cookie.',
    );
  if (!schemes.includes(credential.scheme) || !credential.token) {
    throw new UnauthorisedError(`${credential.scheme} credentials are not accepted here, or are malformed.`);
  }
  const aheadOf: AheadOf = (principalId) => readAhead(knownPermissions(principalId));
  const { record, read, permissions } =
    credential.scheme === 'OAuth2'
      ? await fromAccessToken(credential.token, aheadOf)
      : await fromSession(credential.token, aheadOf);
  remember(record.id, permissions);
  return {
    principal: {
      id: record.id,
      kind: record.kind,
      name: record.name,
      permissions: permissions.permissions,
      teams: record.teams ?? {},
    },
    readAhead: read,
  };
};

/**
 * The scope a request runs in: the path's organisation, or every organisation granting the permission.
 * A principal with no grants at all is 403 everywhere; one with grants elsewhere gets 404 for an
 * organisation it has none in, so existence is never revealed.
 */
export const authorise = (principal: Principal, permission: Permission, pathOrgId?: string): Scope => {
  const orgs = [...principal.permissions.keys()];
  if (orgs.length === 0) throw new ForbiddenError('The caller holds no grants in any organisation.');
  const permitted = orgs.filter((org) => principal.permissions.get(org)?.has(permission));
  if (pathOrgId === undefined) {
    if (permitted.length === 0) throw new ForbiddenError(`This needs the ${permission} permission.`);
    return scopeOf(permitted, undefined, actorOf(principal));
  }
  if (!orgs.includes(pathOrgId)) throw new NotFoundError();
  if (!permitted.includes(pathOrgId)) {
    throw new ForbiddenError(`This needs the ${permission} permission in this organisation.`);
  }
  return scopeOf([pathOrgId], undefined, actorOf(principal));
};

/** The principal as the events of its writes name it. */
export const actorOf = (principal: Principal): Actor => ({ kind: principal.kind, id: principal.id });
