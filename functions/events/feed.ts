/**
 * The change feed: one organisation's events in the order they happened, deletions included, read
 * with a cursor (the id of the last event seen, which is also a webhook's `webhook-id`), kept 35 days.
 * A caller sees the events of the records it may view: those of types whose read permission it holds
 * in the organisation, and of records private to their creator (exports) that it made. Events it may
 * not see are passed over, and the cursor moves past them.
 */
import { config } from '#shared/config';
import { eventNames, readEvents, type StoredEvent } from '#shared/data/events';
import { UUID } from '#shared/data/ids';
import type { ApiRequest } from '#shared/http/json-api-handler';
import { viewPermissions } from '#shared/http/read-permissions';
import { parseInteger, problem } from '#shared/jsonapi/collection-query';
import { feedDocument } from '#shared/jsonapi/document';
import type { OwnQueryParameters } from '#shared/jsonapi/own-query-parameters';

export const FEED_PAGE_DEFAULT = 100;
export const FEED_PAGE_MAX = 1000;
/** `filter[type]` names at most this many event names (DynamoDB's `IN` takes 100 operands). */
const NAMES_MAX = 20;

/** The query parameters the feed takes, with their syntax (for the OpenAPI document). */
export const feedParameters = {
  cursor: {
    description:
      'The id of the last event you have seen (or a webhook-id): the page starts after it. Without it, the oldest event kept.',
    schema: { type: 'string', format: 'uuid' },
  },
  'page[limit]': {
    description: `Events per page: 1 to ${FEED_PAGE_MAX}, ${FEED_PAGE_DEFAULT} by default.`,
    schema: { type: 'integer', minimum: 1, maximum: FEED_PAGE_MAX, default: FEED_PAGE_DEFAULT },
  },
  'filter[type]': {
    description: `Event names, comma-separated (at most ${NAMES_MAX}), e.g. vehicle.allocated,vehicle.updated.`,
  },
  'filter[subject_id]': {
    description: 'Only the events of this record.',
    schema: { type: 'string', format: 'uuid' },
  },
} satisfies OwnQueryParameters;

// Parsed by hand, as the generic collection query is: zod would be this read's largest module at a cold
// start (about 100 KB). Unknown parameters were refused before the handler ran (the route lists what it takes).
const eventId = (query: ApiRequest['query'], parameter: string): string | undefined => {
  const raw = query[parameter];
  if (raw === undefined) return undefined;
  if (!UUID.test(raw)) throw problem(parameter, `${parameter} is an event id (a UUID).`);
  return raw.toLowerCase();
};

const eventNamesOf = (raw: string | undefined): string[] | undefined => {
  if (raw === undefined) return undefined;
  const names = raw.split(',');
  if (names.length > NAMES_MAX)
    throw problem('filter[type]', `filter[type] names at most ${NAMES_MAX} events.`);
  const known = new Set(eventNames());
  const unknown = names.find((name) => !known.has(name));
  if (unknown !== undefined)
    throw problem(
      'filter[type]',
      `No event is named ${unknown}: names are <resource>.<action>, e.g. vehicle.created.`,
    );
  return names;
};

const parseQuery = (query: ApiRequest['query']) => {
  const limit = query['page[limit]'];
  return {
    cursor: eventId(query, 'cursor'),
    'page[limit]':
      limit === undefined ? FEED_PAGE_DEFAULT : parseInteger('page[limit]', limit, 1, FEED_PAGE_MAX),
    'filter[type]': eventNamesOf(query['filter[type]']),
    'filter[subject_id]': eventId(query, 'filter[subject_id]'),
  };
};

/** An event as the API shows it: who did what to which record, when, and the record as it became. */
export const eventResource = (event: StoredEvent) => ({
  type: 'events',
  id: event.id,
  attributes: {
    name: event.event,
    occurred_at: event.occurred_at,
    subject: event.subject,
    actor: {
      type: event.actor.kind === 'system' ? 'system' : `${event.actor.kind}s`,
      id: event.actor.id,
    },
    data: event.data,
  },
  relationships: {},
  meta: {},
});

export const eventFeed = async (request: ApiRequest<{ org_id: string }>) => {
  const query = parseQuery(request.query);
  const orgId = request.params.org_id;
  const granted = request.principal?.permissions.get(orgId);
  const typesRead = (test: (permission: string) => boolean) =>
    [...viewPermissions()].filter(([, permission]) => test(permission)).map(([type]) => type);
  const { events, last } = await readEvents(request.scope, orgId, {
    after: query.cursor,
    limit: query['page[limit]'],
    names: query['filter[type]'],
    subjectId: query['filter[subject_id]'],
    subjectTypes: typesRead((permission) => granted?.has(permission as never) ?? false),
    // Records any member reads are each their creator's own (an export): theirs alone.
    ownTypes: typesRead((permission) => permission === 'authenticated'),
    reader: request.principal?.id,
    settleMs: config.EVENT_FEED_SETTLE_SECONDS * 1000,
  });
  return feedDocument(request, events.map(eventResource), last);
};
