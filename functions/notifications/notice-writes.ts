/**
 * Sending a notice: the document (its shape is a 400), the names it reads (the users and teams it
 * names, the sender's team), a pure decision (what it names must be the organisation's, escalation in
 * bounds: each a 422 at its pointer, nothing written) and one create: the notice and its
 * `notice.created` event, which carries the recipients as sent for the consumer to resolve.
 */

import * as z from 'zod';
import type { Principal } from '#shared/auth/principal';
import { NOTIFICATION_CATEGORIES, NOTIFICATION_SEVERITIES } from '#shared/domain/notification-rules';
import { defineWrite, type WriteRequest } from '#shared/engine/define-write';
import { byPrincipal, newRecord } from '#shared/engine/record-writes';
import { requiredLine, requiredText } from '#shared/jsonapi/attribute-types';
import { UnprocessableContentError } from '#shared/jsonapi/errors';
import { identifier } from '#shared/jsonapi/request-document';
import { membersOfTeams, readRecipientFacts } from './notice-recipients';
import { notices } from './notices';
import { escalationProblems, senderTeamProblems } from './rules/notice';
import {
  NAMED_TEAMS_MAX,
  NAMED_USERS_MAX,
  recipientCount,
  recipientProblems,
} from './rules/notice-recipients';

export const createNoticeDocument = z.lazy(() =>
  z.strictObject({
    data: z.strictObject({
      type: z.literal('notices'),
      attributes: z.strictObject({
        title: requiredLine(120),
        body: requiredText(5000),
        category: z.enum(NOTIFICATION_CATEGORIES).default('safety'),
        severity: z.enum(NOTIFICATION_SEVERITIES),
        requires_ack: z.boolean().default(false),
        escalate_after: z.string().max(40).optional(),
        recipients: z.strictObject({
          users: z.array(z.uuid()).max(NAMED_USERS_MAX).default([]),
          teams: z.array(z.uuid()).max(NAMED_TEAMS_MAX).default([]),
          everyone: z.boolean().default(false),
        }),
      }),
      relationships: z
        .strictObject({ sender_team: z.strictObject({ data: identifier('teams') }) })
        .optional(),
    }),
  }),
);

type NoticeRequest = WriteRequest & { principal: Principal };

export const createNotice = defineWrite({
  document: createNoticeDocument,
  facts: async ({ scope, orgId }: NoticeRequest, { data }) => {
    const senderTeam = data.relationships?.sender_team.data.id;
    const [recipients, senderTeams] = await Promise.all([
      readRecipientFacts(scope, orgId, data.attributes.recipients),
      membersOfTeams(scope, orgId, senderTeam ? [senderTeam] : []),
    ]);
    return { recipients, senderTeamMembers: senderTeam ? (senderTeams.get(senderTeam) ?? null) : null };
  },
  decide: ({ orgId, principal, now }, { data }, facts) => {
    const { attributes } = data;
    const senderTeam = data.relationships?.sender_team.data.id;
    const problems = [
      ...recipientProblems(attributes.recipients, facts.recipients.found),
      ...escalationProblems(attributes.requires_ack, attributes.escalate_after),
      ...senderTeamProblems(attributes.requires_ack, senderTeam, facts.senderTeamMembers, principal),
    ];
    if (problems.length > 0) throw new UnprocessableContentError(problems);
    const notice = newRecord(
      notices,
      orgId,
      {
        attributes: {
          ...attributes,
          escalate_after: attributes.escalate_after ?? null,
          recipient_count: recipientCount(attributes.recipients, facts.recipients),
        },
        rels: { ...byPrincipal('sender', principal, 'sender'), sender_team: senderTeam ?? null },
      },
      now,
    );
    return { notice };
  },
  ops: (_request, { notice }) => ({ ops: [{ create: notice }] }),
  answer: ({ notice }) => notice,
});
