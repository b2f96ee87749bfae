/**
 * Indexed filters (issue 42, item 1) on street works: permits' and activities' `status` (counted), `usrn`,
 * `reference` and `latest_event_time` (their sorts' indexes) and `created_at`, and protections'
 * `event_type`, `object_reference`, `event_time` (its sort's index) and `received_at`
 * (the id's own instant) are answered from their access patterns, with the answers the partition's filter
 * gave and reads bounded by what a page returns; a permit's `work_status` and a protection's `applied`
 * narrow an indexed filter and alone are refused. Seeded with BatchWriteItem as the feed's writes would have stored them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permits, protections, streetWorks } from '#functions/street-works/definitions';
import { compareCollated } from '#shared/data/collation';
import type { StoredResource } from '#shared/data/stored-resource';
import { newRecord } from '#shared/engine/record-writes';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { idsByCursor } from '../support/cursor-walk';
import { expectCursorPagesRead, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const OBJECTS = 150;
const PROTECTIONS = 300;
const MINUTE = 60_000;
const START = Date.UTC(2026, 2, 1);
const STATUSES = ['granted', 'submitted', 'granted', 'refused', null, 'cancelled'];
const WORK = ['not_started', 'in_progress', 'completed', null];
const EVENTS = ['PERMIT_SUBMITTED', 'PERMIT_GRANTED', 'WORK_START', 'PERMIT_GRANTED', 'UNKNOWN_EVENT'];
const usrn = (i: number) => (i % 7 === 6 ? null : `USRN${i % 12}`);
/** Latest event times distinct and out of creation order, one in eight without. */
const latest = (i: number) =>
  i % 8 === 7 ? null : new Date(START - ((i * 37) % OBJECTS) * MINUTE).toISOString();
const at = (i: number) => new Date(START + i * MINUTE).toISOString();

let api: TestApi;
let tenant: Tenant;
let token: string;
let permitRecords: StoredResource[];
let activityRecords: StoredResource[];
let protectionRecords: StoredResource[];
const paths = {
  permits: () => `/v3/orgs/${tenant.org.id}/street-works/permits`,
  activities: () => `/v3/orgs/${tenant.org.id}/street-works/activities`,
  protections: () => `/v3/orgs/${tenant.org.id}/street-works/protections`,
};

const object = (definition: typeof permits | typeof streetWorks, prefix: string, i: number) =>
  newRecord(
    definition,
    tenant.org.id,
    {
      attributes: {
        reference: `${prefix}${String(i).padStart(5, '0')}`,
        status: STATUSES[i % STATUSES.length] ?? null,
        work_status: WORK[i % WORK.length] ?? null,
        latest_event_time: latest(i),
        usrn: usrn(i),
      },
    },
    new Date(START + i * MINUTE),
  );

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Indexed street works', 0);
  token = await api.token(tenant.admin);
  permitRecords = Array.from({ length: OBJECTS }, (_, i) => object(permits, 'TP', i));
  activityRecords = Array.from({ length: OBJECTS }, (_, i) => object(streetWorks, 'TA', i));
  protectionRecords = Array.from({ length: PROTECTIONS }, (_, i) => {
    const now = new Date(START + i * MINUTE);
    const reference = `TP${String(i % 40).padStart(5, '0')}`;
    return newRecord(
      protections,
      tenant.org.id,
      {
        attributes: {
          event_reference: `E${i}`,
          event_type: EVENTS[i % EVENTS.length],
          object_type: 'PERMIT',
          object_reference: reference,
          // Event times out of receipt order.
          event_time: new Date(START - ((i * 53) % PROTECTIONS) * MINUTE).toISOString(),
          received_at: now.toISOString(),
          applied: i % 3 !== 0,
          event: { object_reference: reference },
          message_attributes: {},
          sns: { topic_arn: 'arn:aws:sns:eu-west-2:1:t', message_id: `m${i}`, subject: null },
        },
      },
      now,
    );
  });
  await bulkPutCounted([...permitRecords, ...activityRecords, ...protectionRecords]);
}, 60_000);
afterAll(() => api.close());

const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);
const newestFirst = (records: () => StoredResource[], keep: (r: StoredResource) => boolean) => () =>
  records()
    .filter(keep)
    .map((r) => r.id)
    .reverse();
/** Newest latest event first (the objects' default sort), a record without one last. */
const latestFirst = (records: () => StoredResource[], keep: (r: StoredResource) => boolean) => () =>
  records()
    .filter(keep)
    .sort(
      (a, b) =>
        compareCollated(b.attributes.latest_event_time, a.attributes.latest_event_time) ||
        compareCollated(b.id, a.id),
    )
    .map((r) => r.id);
const byEventTime = (keep: (r: StoredResource) => boolean) => () =>
  protectionRecords
    .filter(keep)
    .sort((a, b) => compareCollated(a.attributes.event_time, b.attributes.event_time))
    .map((r) => r.id);
const is = (field: string, value: unknown) => (r: StoredResource) => r.attributes[field] === value;
const SINCE = new Date(START - 60 * MINUTE).toISOString();

/** A list's reads besides authentication, measured on its second sending (see children-paging.test.ts). */
const measured = (path: string) => measuredGet(api, token, path);

const cases = (): [string, string, () => string[]][] => [
  [
    paths.permits(),
    'filter[status]=granted&sort=-created_at',
    newestFirst(() => permitRecords, is('status', 'granted')),
  ],
  [paths.permits(), 'filter[status]=refused', latestFirst(() => permitRecords, is('status', 'refused'))],
  [
    paths.permits(),
    'filter[usrn]=USRN5&sort=-created_at',
    newestFirst(() => permitRecords, is('usrn', 'USRN5')),
  ],
  [paths.permits(), 'filter[reference]=TP00042', () => [permitRecords[42]?.id as string]],
  [
    paths.permits(),
    `filter[latest_event_time.since]=${SINCE}`,
    latestFirst(
      () => permitRecords,
      (r) => String(r.attributes.latest_event_time) >= SINCE && r.attributes.latest_event_time !== null,
    ),
  ],
  [
    paths.permits(),
    `filter[created_at.since]=${at(100)}&sort=-created_at`,
    newestFirst(
      () => permitRecords,
      (r) => String(r.meta.created_at) >= at(100),
    ),
  ],
  [
    paths.permits(),
    'filter[status]=granted&filter[work_status]=completed&sort=-created_at',
    newestFirst(
      () => permitRecords,
      (r) => is('status', 'granted')(r) && is('work_status', 'completed')(r),
    ),
  ],
  [
    paths.activities(),
    'filter[status]=cancelled&sort=-created_at',
    newestFirst(() => activityRecords, is('status', 'cancelled')),
  ],
  [paths.activities(), 'filter[usrn]=USRN3', latestFirst(() => activityRecords, is('usrn', 'USRN3'))],
  [paths.activities(), 'filter[reference]=TA00007', () => [activityRecords[7]?.id as string]],
  [
    paths.protections(),
    'filter[event_type]=WORK_START',
    newestFirst(() => protectionRecords, is('event_type', 'WORK_START')),
  ],
  [
    paths.protections(),
    'filter[object_reference]=TP00003',
    newestFirst(() => protectionRecords, is('object_reference', 'TP00003')),
  ],
  [
    paths.protections(),
    'filter[object_reference]=TP00005&filter[applied]=false',
    newestFirst(
      () => protectionRecords,
      (r) => is('object_reference', 'TP00005')(r) && is('applied', false)(r),
    ),
  ],
  [
    paths.protections(),
    `filter[event_time.since]=${SINCE}&sort=event_time`,
    byEventTime((r) => String(r.attributes.event_time) >= SINCE),
  ],
  [
    paths.protections(),
    `filter[received_at.since]=${at(200)}&filter[received_at.until]=${at(260)}`,
    newestFirst(
      () => protectionRecords,
      (r) => String(r.attributes.received_at) >= at(200) && String(r.attributes.received_at) <= at(260),
    ),
  ],
  [
    paths.protections(),
    `filter[applied]=true&filter[event_type]=PERMIT_GRANTED&filter[received_at.since]=${at(100)}`,
    newestFirst(
      () => protectionRecords,
      (r) =>
        is('applied', true)(r) &&
        is('event_type', 'PERMIT_GRANTED')(r) &&
        String(r.attributes.received_at) >= at(100),
    ),
  ],
];

describe('street works: indexed filters answer what the partition filter answered', () => {
  it('by offset, every page and the total are those of the unindexed read', async () => {
    for (const [path, query, expected] of cases()) {
      const res = await api.get(`${path}?${query}&page[limit]=100`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected().slice(0, 100));
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected().length);
    }
  });

  it('by cursor, the walk gives every match once, in the same order', async () => {
    for (const [path, query, expected] of cases()) {
      const walked = await idsByCursor(api, `${path}?${query}&page[limit]=7&page[cursor]=`, token);
      expect(walked, query).toEqual(expected());
    }
  });
});

describe('street works: an indexed filter reads what its page returns', () => {
  it('a cursor page reads at most 1.1× the items it returns, in the same calls at page sizes 3 and 8', async () => {
    const lists = [
      `${paths.permits()}?filter[status]=granted&sort=-created_at`,
      `${paths.permits()}?filter[usrn]=USRN1&sort=-created_at`,
      `${paths.permits()}?filter[latest_event_time.since]=${SINCE}`,
      `${paths.activities()}?filter[created_at.since]=${at(50)}&sort=-created_at`,
      `${paths.protections()}?filter[event_type]=PERMIT_GRANTED`,
      `${paths.protections()}?filter[object_reference]=TP00011`,
      `${paths.protections()}?filter[event_time.since]=${SINCE}&sort=event_time`,
      `${paths.protections()}?filter[received_at.since]=${at(100)}`,
    ];
    await expectCursorPagesRead(measured, lists, { limits: [3, 8], full: true });
  });

  it("an offset page of a permit's status reads its page and the count kept for the status, not every match", async () => {
    for (const [path, query, total] of [
      [paths.permits(), 'filter[status]=granted&sort=-created_at', OBJECTS / 3],
    ] as const) {
      const page = await measured(`${path}?${query}&page[offset]=10&page[limit]=5`);
      expect(page.body.meta.pagination.counts.resources, query).toBe(total);
      expect(page.body.data, query).toHaveLength(5);
      expect(page.items, query).toBe(10 + 5 + 1);
      expect(page.calls, query).toBe(2);
    }
  });
});

describe('street works: the filter that is not indexed', () => {
  it("a permit's work_status and a protection's applied alone are refused with 400 naming the indexed filters", async () => {
    for (const [path, field, indexed] of [
      [
        paths.permits(),
        'work_status',
        'status, reference, usrn, latest_event_time.since, latest_event_time.until, created_at.since, created_at.until',
      ],
      [
        paths.protections(),
        'applied',
        'event_type, object_reference, event_time.since, event_time.until, received_at.since, received_at.until',
      ],
    ] as const) {
      const res = await api.get(`${path}?filter[${field}]=true`, token);
      expect(res.status, res.text).toBe(400);
      const [error] = res.body.errors;
      expect(error.source.parameter).toBe(`filter[${field}]`);
      expect(error.detail).toContain(indexed);
    }
  });

  it('meta.features names the indexed filters beside every option', async () => {
    const features = async (path: string) =>
      (await api.get(`${path}?page[limit]=1`, token)).body.meta.features.params.filter;
    const objects = [
      'status',
      'reference',
      'usrn',
      'latest_event_time.since',
      'latest_event_time.until',
      'created_at.since',
      'created_at.until',
    ];
    expect(await features(paths.permits())).toEqual({
      options: [...objects, 'work_status'],
      indexed: objects,
    });
    expect(await features(paths.activities())).toEqual({ options: objects, indexed: objects });
    const received = [
      'event_type',
      'object_reference',
      'event_time.since',
      'event_time.until',
      'received_at.since',
      'received_at.until',
    ];
    expect(await features(paths.protections())).toEqual({
      options: ['event_type', 'object_reference', 'applied', ...received.slice(2)],
      indexed: received,
    });
  });
});
