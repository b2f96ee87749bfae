import { NOTIFICATION_CATEGORIES, NOTIFICATION_SEVERITIES } from '#shared/domain/notification-rules';
import { defineResource } from '#shared/engine/resource-definition';
import { loadSchemaBuilders } from '#shared/jsonapi/load-schema-builders';

/**
 * Notices: a message a person (or a system integration) sends to people of one organisation, such as a
 * stop-work notice, perhaps requiring acknowledgement. A notice is a record of what was said: once sent
 * it is never changed or deleted (a correction is a new notice). Sent by `notice-writes.ts`; whom it
 * reaches is resolved when it fans out, from the spec it keeps (`notice-recipients.ts`), never listed in
 * it. Reading notices takes `notices:send`: the senders' record; a recipient reads theirs in the inbox.
 */
export const notices = defineResource({
  type: 'notices',
  names: { one: 'Notice', many: 'Notices' },
  collectionPath: '/v3/orgs/{org_id}/notices',
  itemPath: '/v3/notices/{notice_id}',
  permission: 'notices',
  endpoints: {
    list: { permission: 'notices:send' },
    get: { permission: 'notices:send' },
    create: { handler: 'functions/notifications/create-notice.ts', permission: 'notices:send' },
  },
  served: async () => {
    const { z } = await loadSchemaBuilders();
    return {
      title: z.string(),
      body: z.string().describe('Plain text.'),
      category: z.enum(NOTIFICATION_CATEGORIES),
      severity: z.enum(NOTIFICATION_SEVERITIES),
      requires_ack: z.boolean(),
      escalate_after: z
        .string()
        .nullable()
        .describe('ISO 8601 duration: unacknowledged this long, the notice escalates to the sender team.'),
      recipients: z
        .strictObject({
          users: z.array(z.uuid()),
          teams: z.array(z.uuid()),
          everyone: z.boolean(),
        })
        .describe('As sent: resolved to users when the notice fans out.'),
      recipient_count: z
        .number()
        .int()
        .describe('The distinct active users the recipients resolved to when the notice was sent.'),
    };
  },
  relationships: {
    sender: { type: 'users' },
    sender_service_account: { type: 'service-accounts' },
    sender_team: { type: 'teams' },
  },
  keys: {
    'filter-category': {
      index: 'gsi1',
      pk: 'ORG#{org_id}#notices',
      sk: 'category#{attributes.category}#{id}',
      about: 'a notice under its category, in creation order: `filter[category]`',
    },
    'filter-severity': {
      index: 'gsi2',
      pk: 'ORG#{org_id}#notices',
      sk: 'severity#{attributes.severity}#{id}',
      about: 'a notice under its severity, in creation order: `filter[severity]`',
    },
  },
  collection: {
    // An organisation of 500 sites sends thousands a year: every filter reads an index or beside one.
    filters: {
      category: { kind: 'eq', path: 'attributes.category', index: 'filter-category', counted: true },
      severity: { kind: 'eq', path: 'attributes.severity', index: 'filter-severity', counted: true },
      requires_ack: { kind: 'eq', path: 'attributes.requires_ack', type: 'boolean' },
      created_at: { kind: 'time', path: 'meta.created_at', index: 'record' },
    },
    defaultSort: '-created_at',
    includes: ['sender', 'sender_team'],
  },
});
