/**
 * A page of the caller's inbox: newest first by arrival (or oldest first, `sort=arrived`), by cursor, its filters applied to envelopes as served (their effective state). An unfiltered page reads
 * its envelopes and one more (to know there is a next page) and the state item: about 1.04× a page of 25.
 * A filter reads on in growing Query pages until the page is full; archived envelopes are listed only by
 * `filter[state]=archived`.
 */

import type { CollectionQuery, PageRead } from '#shared/data/collection-query';
import { positionObject, UnfitPosition } from '#shared/data/collection-query';
import { live } from '#shared/data/repository';
import { NOTIFICATION_CATEGORIES, NOTIFICATION_SEVERITIES } from '#shared/domain/notification-rules';
import type { CollectionOptions } from '#shared/jsonapi/collection-query';
import { problem } from '#shared/jsonapi/collection-query';
import type { InboxOwner } from './inbox-owner';
import { arrivalsPage, asServed, readState, type StoredEnvelope } from './inbox-state';

export const LISTED_STATES = ['unseen', 'unread', 'saved', 'archived'] as const;

export const inboxOptions: CollectionOptions = {
  filters: {
    organisation: { kind: 'eq', path: 'org_id' },
    category: {
      kind: 'eq',
      path: 'attributes.category',
      description: `One of ${NOTIFICATION_CATEGORIES.join(', ')}.`,
    },
    severity: {
      kind: 'eq',
      path: 'attributes.severity',
      description: `One of ${NOTIFICATION_SEVERITIES.join(', ')}.`,
    },
    state: {
      kind: 'eq',
      path: 'attributes.state',
      description:
        'unseen, unread (unseen or seen), saved, or archived: archived envelopes are listed only by this filter.',
    },
  },
  sorts: { arrived: { path: 'arrival' } },
  defaultSort: '-arrived',
  includes: [],
};

const oneOf = (field: string, value: string, allowed: readonly string[]) => {
  if (!allowed.includes(value))
    throw problem(`filter[${field}]`, `filter[${field}] must be one of ${allowed.join(', ')}.`);
  return value;
};

type Matcher = (envelope: StoredEnvelope) => boolean;

/** The query's filters as one test of a served envelope; bad values are a 400 naming the parameter. */
const matcherOf = (query: CollectionQuery, owner: InboxOwner, now: number): Matcher => {
  const value = (field: string) => {
    const clause = query.filters.find((f) => f.field === field);
    return clause?.op === 'eq' ? String(clause.value) : undefined;
  };
  const category = value('category');
  const severity = value('severity');
  const state = value('state');
  const organisation = value('organisation');
  if (category !== undefined) oneOf('category', category, NOTIFICATION_CATEGORIES);
  if (severity !== undefined) oneOf('severity', severity, NOTIFICATION_SEVERITIES);
  if (state !== undefined) oneOf('state', state, LISTED_STATES);
  return (envelope) => {
    const { attributes: a } = envelope;
    if (!live(envelope, now) || !owner.organisations.has(envelope.org_id)) return false;
    if (organisation !== undefined && envelope.org_id !== organisation) return false;
    if (category !== undefined && a.category !== category) return false;
    if (severity !== undefined && a.severity !== severity) return false;
    if (state === 'archived') return a.archived === true;
    if (a.archived === true) return false;
    if (state === 'unseen') return a.state === 'unseen';
    if (state === 'unread') return a.state !== 'read';
    if (state === 'saved') return a.saved === true;
    return true;
  };
};

interface ArrivalPosition {
  arrival: string;
  id: string;
}

const positionOf = (after: CollectionQuery['page']['after']): ArrivalPosition | undefined => {
  if (after === undefined || after === 'start') return undefined;
  const { arrival, id, ...rest } = positionObject(after);
  if (typeof arrival !== 'string' || typeof id !== 'string' || Object.keys(rest).length > 0)
    throw new UnfitPosition();
  return { arrival, id };
};

const MAX_ASK = 1000;

export const readInboxPage = async (
  owner: InboxOwner,
  query: CollectionQuery,
  now = Date.now(),
): Promise<PageRead<StoredEnvelope>> => {
  const matches = matcherOf(query, owner, now);
  const { limit, after } = query.page;
  const wanted = limit + 1;
  const state = await readState(owner.userId);
  const found: StoredEnvelope[] = [];
  let resume = positionOf(after);
  let ask = wanted;
  for (;;) {
    const read = await arrivalsPage(owner.userId, query.sort.descending, ask, resume);
    for (const envelope of read) {
      const served = asServed(envelope, state);
      if (matches(served)) found.push(served);
    }
    const last = read.at(-1);
    if (found.length >= wanted || read.length < ask || !last) break;
    resume = { arrival: last.arrival, id: last.id };
    ask = Math.min(MAX_ASK, ask * 2);
  }
  const items = found.slice(0, limit);
  const lastItem = items.at(-1);
  return {
    items,
    ...(found.length >= wanted && lastItem && { next: { arrival: lastItem.arrival, id: lastItem.id } }),
  };
};
