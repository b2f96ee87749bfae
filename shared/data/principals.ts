/**
 * The identity records behind authentication, outside any tenant partition because a token names its
 * principal before any organisation is known:
 * - `PRINCIPAL#<id>`: who the caller is, whether they are enabled, their keys' state and (for users)
 *   their team memberships, so one GetItem per request stops a disabled key or account at once;
 * - `CLIENT#<client_id>`: a key's salted secret hash, read only by the token endpoint;
 * - `PRINCIPAL#<id>` / `GRANT#<grant id>`: each grant the principal holds, in any organisation, directly
 *   or through a team, written in the grant's own transaction, so its permissions are one Query;
 * - grants themselves are tenant records (`ORG#<org>#grants`), indexed by grantee on `gsi1`
 *   (`GRANTEE#<id>`) for the grantee's own lists.
 */

import { PutCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, keyFrom, partitionFrom } from './access-patterns';
import { documents, tableName } from './clients';
import { batchGet, getItem, queryItems } from './repository';
import type { ItemKey, StoredResource } from './stored-resource';
import { resourceKey } from './stored-resource';

export interface PrincipalRecord {
  kind: 'service-account' | 'user';
  id: string;
  name: string;
  enabled: boolean;
  /** Keys of a service account by client id, with whether each is enabled. */
  keys: Record<string, { enabled: boolean }>;
  /** A user's teams, by organisation: grants to those teams are the user's too. */
  teams: Record<string, string[]>;
  /** A user's sessions started at or before this instant are over (suspension, deactivation). */
  sessions_after?: string;
}

export interface ClientRecord {
  client_id: string;
  principal_id: string;
  org_id: string;
  secret_hash: string;
  created_at: string;
}

/**
 * What authentication reads. It exists whatever organisation the principal belongs to, so it never
 * proves membership: a write naming a user, team or service account checks the organisation's own
 * record of it (the resource definition's `keyOf(orgId, id)`), as grants and team members do.
 */
const keys = /* @__PURE__ */ declareAccessPatterns('data/principals', {
  principal: {
    index: 'table',
    pk: 'PRINCIPAL#{id}',
    sk: 'PRINCIPAL',
    about: 'the auth projection of a service account or user: enabled, key states, teams',
  },
  grant: {
    index: 'table',
    pk: 'PRINCIPAL#{id}',
    sk: 'GRANT#{grant_id}',
    about: "a grant the principal holds, as the grant's transaction writes it",
  },
  grantee: {
    index: 'gsi1',
    pk: 'GRANTEE#{grantee_id}',
    sk: '{org_id}#{id}',
    about: 'a grant, under who it is granted to',
  },
  client: { index: 'table', pk: 'CLIENT#{client_id}', sk: 'CLIENT', about: 'scrypt hash of the secret' },
});
export const principalKey = (id: string) => keyFrom(keys.principal, { id });
/** A grant as a principal holding it keeps it: what it gives, where, and the team it came through. */
export interface HeldGrant {
  org_id: string;
  grant_id: string;
  role?: string;
  role_group?: string;
  team?: string;
}
export const heldGrantKey = (principalId: string, grantId: string) =>
  keyFrom(keys.grant, { id: principalId, grant_id: grantId });
/** The item of a grant a principal holds (`heldGrantKey`), as the grant's transaction writes it. */
export const heldGrantItem = (principalId: string, held: HeldGrant): ItemKey & HeldGrant => ({
  ...heldGrantKey(principalId, held.grant_id),
  ...held,
});

/** A new user's principal: enabled, no keys, and the teams it joins with. */
export const userPrincipal = (
  id: string,
  name: string,
  teams: Record<string, string[]> = {},
): ItemKey & PrincipalRecord => ({
  ...principalKey(id),
  kind: 'user',
  id,
  name,
  enabled: true,
  keys: {},
  teams,
});

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export const clientKey = (clientId: string) => keyFrom(keys.client, { client_id: clientId });
export const granteeIndexKey = (granteeId: string) => partitionFrom(keys.grantee, { grantee_id: granteeId });

/**
 * A user's principal as their status leaves it, for the status change's own transaction: enabled or not,
 * and (on leaving `active`) every session started until now ended, so a later reactivation does not
 * revive them. Only these members change: the principal's teams and keys are kept by other writes.
 */
export const principalStatusWrite = (
  id: string,
  enabled: boolean,
  endSessionsAt?: string,
): NonNullable<TransactWriteCommandInput['TransactItems']>[number] => ({
  Update: {
    TableName: tableName,
    Key: principalKey(id),
    UpdateExpression: `SET enabled = :enabled${endSessionsAt ? ', sessions_after = :at' : ''}`,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':enabled': enabled, ...(endSessionsAt && { ':at': endSessionsAt }) },
  },
});

/**
 * A user joining teams of an organisation (an accepted invitation): their principal's list for it grows
 * by these ids, in one update (one op per item in a transaction).
 */
export const principalTeamsWrite = (
  id: string,
  orgId: string,
  teamIds: readonly string[],
): NonNullable<TransactWriteCommandInput['TransactItems']>[number] => ({
  Update: {
    TableName: tableName,
    Key: principalKey(id),
    UpdateExpression: 'SET teams.#org = list_append(if_not_exists(teams.#org, :none), :ids)',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#org': orgId },
    ExpressionAttributeValues: { ':none': [], ':ids': [...teamIds] },
  },
});

/**
 * A user leaving a team of an organisation: the team's id leaves their principal's list for it. Its
 * place in the list, as read, is the condition, so a list changed meanwhile refuses the write rather
 * than losing another team's entry.
 */
export const principalTeamLeave = (
  id: string,
  orgId: string,
  teamId: string,
  at: number,
): NonNullable<TransactWriteCommandInput['TransactItems']>[number] => ({
  Update: {
    TableName: tableName,
    Key: principalKey(id),
    UpdateExpression: `REMOVE teams.#org[${at}]`,
    ConditionExpression: `teams.#org[${at}] = :team`,
    ExpressionAttributeNames: { '#org': orgId },
    ExpressionAttributeValues: { ':team': teamId },
  },
});

/**
 * For a transaction whose decision rests on what a principal holds (an invitation accepted under its
 * inviter's authority): the principal is still enabled when it commits.
 */
export const principalEnabledCheck = (id: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName,
    Key: principalKey(id),
    ConditionExpression: 'enabled = :enabled',
    ExpressionAttributeValues: { ':enabled': true },
  },
});

/**
 * For the same: the principal still holds this grant, giving what it gave when read (a revoked grant's
 * item is gone; a changed one's gives another role or role group).
 */
export const heldGrantCheck = (principalId: string, held: HeldGrant): TransactItem => ({
  ConditionCheck: {
    TableName: tableName,
    Key: heldGrantKey(principalId, held.grant_id),
    ConditionExpression: held.role ? '#role = :given' : '#group = :given AND attribute_not_exists(#role)',
    ExpressionAttributeNames: { '#role': 'role', ...(!held.role && { '#group': 'role_group' }) },
    ExpressionAttributeValues: { ':given': held.role ?? held.role_group },
  },
});

export const getPrincipal = (id: string) => getItem<PrincipalRecord>(principalKey(id));

export const putPrincipal = async (principal: PrincipalRecord): Promise<void> => {
  await documents.send(
    new PutCommand({ TableName: tableName, Item: { ...principalKey(principal.id), ...principal } }),
  );
};

/**
 * Every grant a principal holds, in every organisation, directly or through its teams: one Query
 * (`consistent` for a decision that must see a grant revoked a moment ago: a job's next chunk).
 */
export const heldGrantsOf = (principalId: string, consistent = false): Promise<HeldGrant[]> =>
  queryItems<HeldGrant>({
    ConsistentRead: consistent,
    KeyConditionExpression: 'pk = :p AND begins_with(sk, :g)',
    ExpressionAttributeValues: { ':p': principalKey(principalId).pk, ':g': 'GRANT#' },
  });

/** The grant records naming this grantee, in every organisation: one Query on gsi1. */
export const grantsOf = (granteeId: string): Promise<StoredResource[]> =>
  queryItems({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :g',
    ExpressionAttributeValues: { ':g': granteeIndexKey(granteeId) },
  });

/** Tenant records of one type by (organisation, id) pairs, in one BatchGetItem. */
export const recordsByOrg = (type: string, refs: readonly { org_id: string; id: string }[]) =>
  refs.length === 0 ? Promise.resolve([]) : batchGet(refs.map((r) => resourceKey(r.org_id, type, r.id)));
