/** Creating a team: the team, its count and each member's `teams` link commit together. */
import * as z from 'zod';
import { principalKey } from '#shared/data/principals';
import { defineWrite } from '#shared/engine/define-write';
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

/** No reads: each member's link is conditioned on the user, so a member not in the organisation is refused. */
export const createTeam = defineWrite({
  document: createTeamDocument,
  decide: ({ orgId, now }, { data }) => {
    const memberIds = data.relationships?.members?.data.map((m) => m.id) ?? [];
    const team = newRecord(
      teams,
      orgId,
      { attributes: data.attributes, rels: { members: memberIds, schemas: [] } },
      now,
    );
    return { team, memberIds };
  },
  ops: ({ orgId }, { team, memberIds }) => ({
    ops: [
      { create: team },
      ...memberIds.map((id) => ({
        link: { key: users.keyOf(orgId, id), relationship: 'teams', id: team.id },
      })),
      ...memberIds.map((id) => ({
        append: { key: principalKey(id), map: 'teams', name: orgId, id: team.id },
      })),
    ],
    refused: (error) => {
      if (error.code === 'stale' && error.op !== undefined)
        throw new ValidationError({
          detail: 'No such user in this organisation.',
          source: { pointer: `/data/relationships/members/data/${(error.op - 1) % memberIds.length}` },
        });
      throw error;
    },
  }),
  answer: ({ team }) => team,
});
