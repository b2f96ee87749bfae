/**
 * Each demo user's inbox, written by `writeEnvelopes` as the notifications consumer would write it: an
 * award expiring, someone let on site with the gate's warnings, and the stop-work notice (requiring
 * acknowledgement, unacknowledged). Preferences are left absent, which is the defaults. Every demo user
 * reads the organisation (a viewer or admin), so each envelope carries its subject's link.
 */

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type Envelope, writeEnvelopes } from '#functions/notifications/envelopes';
import { notices } from '#functions/notifications/notices';
import { qualificationAwards } from '#functions/qualifications/definitions';
import { siteAttendances } from '#functions/site-attendances/definitions';
import { documents, tableName } from '#shared/data/clients';
import { type StoredEvent, subjectEvents } from '#shared/data/events';
import { uuidv5 } from '#shared/data/ids';
import type { StoredResource } from '#shared/data/stored-resource';
import type { ResourceDefinition } from '#shared/engine/resource-definition';
import type { DemoSiteSubjects } from './demo-sites';

type Told = Pick<Envelope, 'category' | 'severity' | 'title' | 'body' | 'requires_ack'> & {
  event: string;
  subject: StoredResource;
  definition: Pick<ResourceDefinition, 'type' | 'selfPath'>;
  actor: string | null;
};

/** The id of the subject's first event of this name, if its write committed one. */
const committedEvent = async (subjectId: string, name: string): Promise<string | undefined> => {
  const out = await documents.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': subjectEvents(subjectId) },
    }),
  );
  return ((out.Items ?? []) as StoredEvent[]).find((event) => event.event === name)?.id;
};

export const loadDemoNotifications = async (
  orgId: string,
  people: readonly StoredResource[],
  lead: StoredResource,
  { award, attendance }: DemoSiteSubjects,
  notice: StoredResource,
): Promise<number> => {
  const told: Told[] = [
    ...(award
      ? [
          {
            event: 'qualification-award.expiring',
            subject: award,
            definition: qualificationAwards,
            actor: null,
            category: 'people',
            severity: 'warning',
            title: 'Qualification expiring',
            body: 'A qualification award expires within 30 days.',
            requires_ack: false,
          } as const,
        ]
      : []),
    ...(attendance
      ? [
          {
            event: 'site-attendance.created',
            subject: attendance,
            definition: siteAttendances,
            actor: lead.id,
            category: 'safety',
            severity: 'warning',
            title: 'Signed in with warnings',
            body: 'Someone was let on site despite the gate’s checks: an override by the site manager.',
            requires_ack: false,
          } as const,
        ]
      : []),
    {
      event: 'notice.created',
      subject: notice,
      definition: notices,
      actor: lead.id,
      category: 'safety',
      severity: 'critical',
      title: String(notice.attributes.title),
      body: String(notice.attributes.body),
      requires_ack: true,
    },
  ];
  // The event each envelope tells of: the subject's own, where its write committed one (the notice's, an
  // attendance's), so the consumer, telling the same event, finds the envelope already written; else one
  // named for the subject and the event (an expiry warning the schedule has not yet given). Either way a
  // restart writes the same envelopes (put if absent) and nothing twice.
  const eventIds = await Promise.all(
    told.map(
      async ({ event, subject }) =>
        (await committedEvent(subject.id, event)) ?? uuidv5(`${event}#${subject.id}`, orgId),
    ),
  );
  const { written } = await writeEnvelopes(
    told.flatMap(({ event, subject, definition, actor, ...rendered }, at) =>
      people.map(
        (person): Envelope => ({
          ...rendered,
          recipient: person.id,
          org_id: orgId,
          event: { id: eventIds[at] ?? '', name: event },
          subject: { type: definition.type, id: subject.id },
          actor: actor === null ? null : { type: 'users', id: actor },
          link: definition.selfPath?.(subject) ?? null,
          // Pending: the demo writes no e-mail; the consumer's e-mail part sends what is pending.
          channels: { email: true },
        }),
      ),
    ),
  );
  return written;
};
