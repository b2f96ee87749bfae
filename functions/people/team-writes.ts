/** Creating a team: the team, its count and each member's `teams` link commit together. */
import * as z from 'zod';
import { principalKey } from '#shared/data/principals';
import type { Scope } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit, WriteRefused } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { freeText, requiredLine } from '#shared/jsonapi/attribute-types';
import { ValidationError } from '#shared/jsonapi/errors';
import { createDocument, toMany } from '#shared/jsonapi/request-document';
import { teams } from './teams';
import { users } from './users';

/**
 * Members named at creation: one transaction holds the team, its counter and, per member, the user's
 * `teams` link and the principal's team list (grants to the team count for its members).
 */
export const TEAM_MEMBERS_AT_CREATION_MAX = 45;

export const createTeamDocument = z.lazy(() =>
  createDocument(
    'teams',
    { name: requiredLine(200), description: freeText(2000).default('') },
    {
      members: toMany('users', TEAM_MEMBERS_AT_CREATION_MAX)
        .refine(
          ({ data }) => new Set(data.map((m) => m.id)).size === data.length,
          'members lists a user more than once.',
        )
        .optional(),
    },
  ),
);

export const createTeam = async (
  scope: Scope,
  orgId: string,
  { data }: z.infer<typeof createTeamDocument>,
  now = new Date(),
): Promise<StoredResource> => {
  const memberIds = data.relationships?.members?.data.map((m) => m.id) ?? [];
  const team = newRecord(
    teams,
    orgId,
    { attributes: data.attributes, rels: { members: memberIds, schemas: [] } },
    now,
  );
  const links = memberIds.map((id) => ({
    link: { key: users.keyOf(orgId, id), relationship: 'teams', id: team.id },
  }));
  const memberships = memberIds.map((id) => ({
    append: { key: principalKey(id), map: 'teams', name: orgId, id: team.id },
  }));
  await commit(scope, [{ create: team }, ...links, ...memberships]).catch((error: unknown) => {
    if (error instanceof WriteRefused && error.code === 'stale' && error.op !== undefined) {
      throw new ValidationError({
        detail: 'No such user in this organisation.',
        source: { pointer: `/data/relationships/members/data/${(error.op - 1) % memberIds.length}` },
      });
    }
    throw error;
  });
  return team;
};
