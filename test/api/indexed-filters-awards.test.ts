/**
 * Indexed filters (issue 42, item 1) on qualification awards: `status` (counted), `person`,
 * `qualification_type`, `expires_at.since/until` (a range of the expiry's sort index) and
 * `created_at.since/until` are answered from their access patterns, with the answers the partition's
 * filter gave and reads bounded by what a page returns; `number` narrows an indexed filter and alone is
 * refused. Seeded with BatchWriteItem as their creates would have stored them (counted-seed.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualificationAwards } from '#functions/qualifications/definitions';
import { compareCollated } from '#shared/data/collation';
import type { StoredResource } from '#shared/data/stored-resource';
import { newRecord } from '#shared/engine/record-writes';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { idsByCursor } from '../support/cursor-walk';
import { expectCursorPagesRead, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const COUNT = 300;
const MINUTE = 60_000;
const DAY = 86_400_000;
const START = Date.UTC(2026, 2, 1);
const STATUSES = ['valid', 'valid', 'pending_approval', 'valid', 'expired', 'rejected'];
/** 30 people and 3 types; ids only (a filter compares the identifier, the records are not read). */
const PERSON = (n: number) => `019c0000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const TYPE = (n: number) => `019c0000-0000-7000-9000-${String(n).padStart(12, '0')}`;

let api: TestApi;
let tenant: Tenant;
let token: string;
let awards: StoredResource[];
const base = () => `/v3/orgs/${tenant.org.id}/qualifications/awards`;
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * DAY).toISOString().slice(0, 10);

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Indexed awards', 0);
  token = await api.token(tenant.admin);
  // Expiry dates distinct and out of creation order, one in ten without; numbers repeat across types.
  awards = Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      qualificationAwards,
      tenant.org.id,
      {
        attributes: {
          status: STATUSES[i % STATUSES.length],
          issued_at: '2025-01-01',
          expires_at: i % 10 === 9 ? null : day((i * 37) % COUNT),
          number: `N${i % 50}`,
          notes: null,
        },
        rels: { person: PERSON(i % 30), qualification_type: TYPE(i % 3) },
      },
      new Date(START + i * MINUTE),
    ),
  );
  await bulkPutCounted(awards);
}, 60_000);
afterAll(() => api.close());

const at = (i: number) => new Date(START + i * MINUTE).toISOString();
const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);
const newestFirst = (keep: (award: StoredResource) => boolean) =>
  awards
    .filter(keep)
    .map((a) => a.id)
    .reverse();
const byExpiry = (keep: (award: StoredResource) => boolean) =>
  awards
    .filter(keep)
    .sort((a, b) => compareCollated(a.attributes.expires_at, b.attributes.expires_at))
    .map((a) => a.id);
const has =
  (field: 'person' | 'qualification_type', id: string) =>
  (award: StoredResource): boolean =>
    award.rels[field] === id;
const status = (value: string) => (award: StoredResource) => award.attributes.status === value;
const SINCE = '2026-03-01T00:00:00.000Z';
const UNTIL = '2026-06-30T00:00:00.000Z';
/** As the filter compares them: the stored date against the instant, as text. */
const inWindow = (award: StoredResource) => {
  const expires = award.attributes.expires_at;
  return typeof expires === 'string' && expires >= SINCE && expires <= UNTIL;
};

/** A list's reads besides authentication, measured on its second sending (see children-paging.test.ts). */
const measured = (path: string) => measuredGet(api, token, path);

describe('awards: indexed filters answer what the partition filter answered', () => {
  const cases: [string, () => string[]][] = [
    ['filter[status]=expired', () => newestFirst(status('expired'))],
    [`filter[person]=${PERSON(7)}`, () => newestFirst(has('person', PERSON(7)))],
    [`filter[person]=${PERSON(7)}&sort=expires_at`, () => byExpiry(has('person', PERSON(7)))],
    [`filter[qualification_type]=${TYPE(1)}`, () => newestFirst(has('qualification_type', TYPE(1)))],
    [
      `filter[expires_at.since]=${SINCE}&filter[expires_at.until]=${UNTIL}&sort=expires_at`,
      () => byExpiry(inWindow),
    ],
    [`filter[expires_at.since]=${SINCE}&filter[expires_at.until]=${UNTIL}`, () => newestFirst(inWindow)],
    [
      `filter[expires_at.until]=${SINCE}&sort=-expires_at`,
      () =>
        byExpiry(
          (a) => typeof a.attributes.expires_at === 'string' && a.attributes.expires_at <= SINCE,
        ).reverse(),
    ],
    [`filter[created_at.since]=${at(250)}`, () => newestFirst((a) => String(a.meta.created_at) >= at(250))],
    [
      `filter[qualification_type]=${TYPE(2)}&filter[number]=N11`,
      () => newestFirst((a) => has('qualification_type', TYPE(2))(a) && a.attributes.number === 'N11'),
    ],
    [
      `filter[person]=${PERSON(4)}&filter[status]=valid&filter[expires_at.since]=${SINCE}`,
      () =>
        newestFirst(
          (a) =>
            has('person', PERSON(4))(a) && status('valid')(a) && String(a.attributes.expires_at) >= SINCE,
        ),
    ],
  ];

  it('by offset, every page and the total are those of the unindexed read', async () => {
    for (const [query, expected] of cases) {
      const res = await api.get(`${base()}?${query}&page[limit]=100`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected().slice(0, 100));
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected().length);
    }
  });

  it('by cursor, the walk gives every match once, in the same order', async () => {
    for (const [query, expected] of cases) {
      const walked = await idsByCursor(api, `${base()}?${query}&page[limit]=7&page[cursor]=`, token);
      expect(walked, query).toEqual(expected());
    }
  });
});

describe('awards: an indexed filter reads what its page returns', () => {
  it('a cursor page reads at most 1.1× the items it returns, in the same calls at page sizes 3 and 8', async () => {
    const queries = [
      'filter[status]=expired',
      `filter[person]=${PERSON(12)}`,
      `filter[qualification_type]=${TYPE(0)}`,
      `filter[expires_at.since]=${SINCE}&sort=expires_at`,
      `filter[created_at.since]=${at(100)}`,
    ];
    const paths = queries.map((query) => `${base()}?${query}`);
    await expectCursorPagesRead(measured, paths, { limits: [3, 8], full: true });
  });

  it('an offset page of filter[status] reads its page and the count kept for the status, not every match', async () => {
    for (const [offset, limit] of [
      [0, 5],
      [10, 5],
    ] as const) {
      const page = await measured(
        `${base()}?filter[status]=valid&page[offset]=${offset}&page[limit]=${limit}`,
      );
      expect(page.body.meta.pagination.counts.resources).toBe(COUNT / 2);
      expect(page.body.data).toHaveLength(limit);
      expect(page.items).toBe(offset + limit + 1);
      expect(page.calls).toBe(2);
    }
  });
});

describe('awards: the filter that is not indexed', () => {
  it('number alone is refused with 400 naming the indexed filters, and beside one is answered', async () => {
    const res = await api.get(`${base()}?filter[number]=N11`, token);
    expect(res.status, res.text).toBe(400);
    const [error] = res.body.errors;
    expect(error.source.parameter).toBe('filter[number]');
    expect(error.detail).toContain(
      'status, person, qualification_type, expires_at.since, expires_at.until, created_at.since, created_at.until',
    );
  });

  it('meta.features names the indexed filters beside every option', async () => {
    const res = await api.get(`${base()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter).toEqual({
      options: [
        'status',
        'person',
        'qualification_type',
        'number',
        'expires_at.since',
        'expires_at.until',
        'created_at.since',
        'created_at.until',
      ],
      indexed: [
        'status',
        'person',
        'qualification_type',
        'expires_at.since',
        'expires_at.until',
        'created_at.since',
        'created_at.until',
      ],
    });
  });
});
