/**
 * Notifications: envelopes, one per recipient user and event, in the recipient's own inbox partition
 * (`INBOX#<user_id>`), never the organisation's: an inbox is read whole by its owner, across every
 * organisation they belong to. Listed newest first by arrival (`lsi1`, a UUIDv7 minted when the envelope is
 * written), the order the inbox's watermarks compare (docs/notifications.md). Personal, so not events.
 */
import { NOTIFICATION_CATEGORIES, NOTIFICATION_SEVERITIES } from '#shared/domain/notification-rules';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

export const INBOX_STATES = ['unseen', 'seen', 'read'] as const;

/** The types an envelope's subject may be: the subjects of the shipped rules' events, and notices. */
export const SUBJECT_TYPES = ['invitations', 'notices', 'qualification-awards', 'site-attendances'] as const;

export const notifications = defineResource({
  type: 'notifications',
  names: { one: 'Notification', many: 'Notifications' },
  itemPath: '/v3/notifications/{notification_id}',
  events: false,
  keys: {
    record: {
      index: 'table',
      pk: 'INBOX#{user_id}',
      sk: 'ENVELOPE#{id}',
      about:
        "an envelope, in its recipient's inbox (beside its state item and preferences, so prefixed): its id is UUIDv5(event id, namespace = the user's id)",
    },
    arrival: {
      index: 'lsi1',
      pk: 'INBOX#{user_id}',
      sk: 'ARRIVED#{arrival}',
      about:
        "an envelope by arrival (a UUIDv7 minted when written): the inbox newest first, and watermarks; sparse: an envelope kept out of the inbox (its category's inbox off, e-mail on) has none",
    },
    state: {
      index: 'table',
      pk: 'INBOX#{user_id}',
      sk: 'STATE',
      about:
        "the inbox's state: watermarks, their generations, and its counts by organisation, day and category",
    },
    digest: {
      index: 'table',
      pk: 'INBOX#{user_id}',
      sk: 'DIGEST#{org_id}#{window}',
      about:
        'an e-mail digest window of one organisation, ending at `window` (ISO 8601): its due-work entry (`notification-digest`), its count of lines, and the claim of its one e-mail',
    },
    digestLine: {
      index: 'table',
      pk: 'INBOX#{user_id}',
      sk: 'DIGEST-LINE#{org_id}#{window}#{arrival}',
      about:
        "a digested envelope's line in its window (title, link, category, envelope id), written with the envelope, by arrival: the digest's one Query; removed once mailed",
    },
  },
  served: async () => {
    const { z, instant } = await loadSchemaBuilders();
    const delivery = z.strictObject({
      status: z.enum(['pending', 'sent', 'suppressed', 'failed']),
      at: instant().nullable(),
      reason: z.string().optional(),
      message_id: z.string().optional().describe("SES's message id, once sent by e-mail."),
      digest: instant()
        .optional()
        .describe('E-mail in a digest: the end of its window, when the digest listing it is due.'),
    });
    return {
      category: z.enum(NOTIFICATION_CATEGORIES),
      severity: z.enum(NOTIFICATION_SEVERITIES),
      title: z.string(),
      body: z.string().describe('Plain text.'),
      link: z
        .string()
        .nullable()
        .describe("The subject's API path; null where the recipient may not read it."),
      event: z.strictObject({ id: z.string(), name: z.string() }).describe('The event it came from.'),
      requires_ack: z.boolean(),
      acknowledged_at: instant().nullable(),
      state: z.enum(INBOX_STATES).describe('Effective: its own mark, or the watermark above it.'),
      saved: z
        .boolean()
        .describe('Saved envelopes are kept; others expire 90 days after their day of arrival.'),
      archived: z.boolean(),
      deliveries: z.strictObject({ inbox: delivery, email: delivery }),
    };
  },
  relationships: {
    subject: { types: SUBJECT_TYPES },
    actor: { types: ['users', 'service-accounts'] },
  },
});
