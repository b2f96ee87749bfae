/**
 * Who is calling and what they may do. Authentication resolves a credential to a principal with one
 * GetItem; authorisation turns the principal's grants and the route's permission into the data-layer
 * scope. Outside the caller's organisations is 404 (existence is not revealed); inside one but
 * without the permission is 403.
 */
import type { Grant } from '../data/principals';
import { getPrincipal } from '../data/principals';
import type { Scope } from '../data/scope';
import { scopeOf } from '../data/scope';
import { ForbiddenError, NotFoundError, UnauthorisedError } from '../jsonapi/errors';
import type { Permission } from './permissions';
import { roleGrants } from './permissions';
import type { AuthScheme } from './schemes';
import { verifyAccessToken } from './verify-access-token';

export interface Principal {
  id: string;
  kind: 'service-account' | 'user';
  name: string;
  grants: readonly Grant[];
}

type Headers = Readonly<Record<string, string | undefined>>;

const bearerToken = (headers: Headers): string | null => {
  const match = /^Bearer ([A-Za-z0-9_.~+/-]+=*)$/.exec(headers.authorization ?? '');
  return match?.[1] ?? null;
};

const fromAccessToken = async (token: string): Promise<Principal> => {
  const verified = await verifyAccessToken(token).catch(() => {
    throw new UnauthorisedError('The access token is invalid or expired; request a new one.');
  });
  const record = await getPrincipal(verified.principalId);
  if (!record?.enabled || record.keys[verified.clientId]?.enabled !== true) {
    throw new UnauthorisedError('The credentials behind this token are disabled or deleted.');
  }
  return { id: record.id, kind: record.kind, name: record.name, grants: record.grants };
};

/** Resolves the request's credentials under the schemes the route accepts. */
export const authenticate = async (headers: Headers, schemes: readonly AuthScheme[]): Promise<Principal> => {
  const token = bearerToken(headers);
  if (token && schemes.includes('OAuth2')) return fromAccessToken(token);
  throw new UnauthorisedError(
    headers.authorization ? 'The Authorization header is not a Bearer token.' : 'No credentials were sent.',
  );
};

/** The scope a request runs in: the path's organisation, or every organisation granting the permission. */
export const authorise = (principal: Principal, permission: Permission, pathOrgId?: string): Scope => {
  const permitted = [
    ...new Set(principal.grants.filter((g) => roleGrants(g.role, permission)).map((g) => g.org_id)),
  ];
  if (pathOrgId === undefined) {
    if (permitted.length === 0) throw new ForbiddenError(`This needs the ${permission} permission.`);
    return scopeOf(permitted);
  }
  if (!principal.grants.some((g) => g.org_id === pathOrgId)) throw new NotFoundError();
  if (!permitted.includes(pathOrgId)) {
    throw new ForbiddenError(`This needs the ${permission} permission in this organisation.`);
  }
  return scopeOf([pathOrgId]);
};
