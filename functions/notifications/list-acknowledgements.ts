import { applyInMemory } from '#shared/data/in-memory-collection';
import { queryItems } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import { listResources } from '#shared/engine/collection';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { type CollectionOptions, problem } from '#shared/jsonapi/collection-query';
import { eventAcknowledgements, subjectAcknowledgements } from './acknowledgement-records';
import { acknowledgements } from './acknowledgements';

/** Its own options (not the declaration's): both filters are key ranges this module reads itself. */
export const collectionOptions: CollectionOptions = {
  filters: {
    event: { kind: 'eq', path: 'event_id', description: 'An event id: its recipients. This or `notice`.' },
    notice: {
      kind: 'eq',
      path: 'subject_id',
      description: "A notice id: its `notice.created`'s recipients.",
    },
  },
  sorts: { created_at: { path: 'meta.created_at' } },
  defaultSort: 'created_at',
  includes: [],
};

/** A read without zod (a first GET loads none): an id is a UUID. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Every acknowledgement of one event (`filter[event]`) or of a notice's `notice.created`
 * (`filter[notice]`): one Query of the organisation's key range for it, which is read whole (the counts
 * in `meta.acknowledgements` are of every recipient, whatever the page).
 */
const readAcknowledgements = (orgId: string, filter: { event?: string; notice?: string }) =>
  queryItems<StoredResource>(
    filter.event !== undefined
      ? {
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': eventAcknowledgements(orgId, filter.event) },
        }
      : {
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk',
          ExpressionAttributeValues: { ':pk': subjectAcknowledgements(orgId, filter.notice ?? '') },
        },
  );

/**
 * GET /v3/orgs/{org_id}/notification-acknowledgements: who has acknowledged an event's envelopes and who
 * has not ("has everyone seen the stop-work notice?"). The key range is the organisation's own, so another
 * organisation's event id answers an empty list.
 */
export const handler = jsonApiHandler('listNotificationAcknowledgements', async (request) => {
  const event = request.query['filter[event]'];
  const notice = request.query['filter[notice]'];
  if ((event === undefined) === (notice === undefined))
    throw problem(
      'filter[event]',
      'Name the event (filter[event]) or the notice (filter[notice]), one of them.',
    );
  const [parameter, id] = event !== undefined ? ['filter[event]', event] : ['filter[notice]', notice];
  if (!UUID.test(id ?? '')) throw problem(parameter, `${parameter} must be an id.`);
  const records = await readAcknowledgements(request.params.org_id, { event, notice });
  const document = await listResources(
    request,
    { ...acknowledgements, collection: collectionOptions },
    async (query) => applyInMemory(records, query),
  );
  const acknowledged = records.filter((r) => r.attributes.acknowledged_at != null).length;
  return {
    ...document,
    meta: {
      ...document.meta,
      acknowledgements: {
        recipients: records.length,
        acknowledged,
        outstanding: records.length - acknowledged,
      },
    },
  };
});
