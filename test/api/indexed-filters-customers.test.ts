/**
 * Indexed filters (issue 42, item 1) on customer interactions and appointments, which grow with the sites:
 * `contact` on a per-contact `gsi2` partition and `channel`/`status` (counted) on `gsi1`, each entry in
 * the order of the list's one sort (`occurred_at`, `starts_at`); the time windows on that sort's own index.
 * The answers are those the partition's filter gave, and a page reads what it returns. Seeded with
 * BatchWriteItem as their creates would have stored them (counted-seed.ts), beside another organisation's
 * records naming the same contacts and values; moves (a status, a contact, a time changed) go through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerAppointments, customerInteractions } from '#functions/customers/definitions';
import { compareCollated } from '#shared/data/collation';
import type { StoredResource } from '#shared/data/stored-resource';
import { newRecord } from '#shared/engine/record-writes';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { idsByCursor } from '../support/cursor-walk';
import { expectCursorPagesRead, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const COUNT = 240;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const START = Date.UTC(2026, 2, 1);
const CHANNELS = ['phone', 'email', 'visit', 'phone', 'letter', 'email', 'phone', 'sms'];
const STATUSES = ['scheduled', 'completed', 'scheduled', 'cancelled', 'scheduled', 'completed', 'no_show'];
const CONTACT = (n: number) => `019c0000-0000-7000-8000-${String(n).padStart(12, '0')}`;

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let token: string;
let interactions: StoredResource[];
let appointments: StoredResource[];
const at = (i: number) => new Date(START + i * MINUTE);
/** Times out of creation order (37 and 53 are prime to 240: every one distinct), so the sort and the key differ. */
const occurredAt = (i: number) => new Date(START + ((i * 37) % COUNT) * HOUR).toISOString();
const startsAt = (i: number) => new Date(START + ((i * 53) % COUNT) * HOUR).toISOString();

const interaction = (orgId: string, i: number) =>
  newRecord(
    customerInteractions,
    orgId,
    {
      attributes: {
        channel: CHANNELS[i % CHANNELS.length],
        direction: i % 2 === 0 ? 'inbound' : 'outbound',
        occurred_at: occurredAt(i),
        summary: `Call ${i}`,
      },
      rels: { contact: CONTACT(i % 12), account: null },
    },
    at(i),
  );
const appointment = (orgId: string, i: number) =>
  newRecord(
    customerAppointments,
    orgId,
    {
      attributes: {
        starts_at: startsAt(i),
        purpose: `Visit ${i}`,
        status: STATUSES[i % STATUSES.length],
      },
      rels: { contact: CONTACT(i % 12), account: null, assignee: null },
    },
    at(i),
  );

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Indexed customers', 0), newTenant('Other customers', 0)]);
  token = await api.token(tenant.admin);
  interactions = Array.from({ length: COUNT }, (_, i) => interaction(tenant.org.id, i));
  appointments = Array.from({ length: COUNT }, (_, i) => appointment(tenant.org.id, i));
  // Another organisation's, naming the same contacts, channels, statuses and times: never in the answers.
  const others = Array.from({ length: 60 }, (_, i) => [
    interaction(other.org.id, i),
    appointment(other.org.id, i),
  ]).flat();
  await bulkPutCounted([...interactions, ...appointments, ...others]);
}, 60_000);
afterAll(() => api.close());

const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);
type Keep = (r: StoredResource) => boolean;
/** The unindexed read's answer: the matches in the list's sort (by the time, ascending or descending). */
const sortedBy =
  (records: () => StoredResource[], field: string, keep: Keep, descending = false) =>
  () => {
    const ids = records()
      .filter(keep)
      .sort((a, b) => compareCollated(a.attributes[field], b.attributes[field]))
      .map((r) => r.id);
    return descending ? ids.reverse() : ids;
  };
const byOccurrence = (keep: Keep, descending = true) =>
  sortedBy(() => interactions, 'occurred_at', keep, descending);
const byStart = (keep: Keep, descending = false) =>
  sortedBy(() => appointments, 'starts_at', keep, descending);
const SINCE = new Date(START + 40 * HOUR).toISOString();
const UNTIL = new Date(START + 160 * HOUR).toISOString();
const within =
  (field: string, since = SINCE, until = UNTIL) =>
  (r: StoredResource) =>
    String(r.attributes[field]) >= since && String(r.attributes[field]) <= until;
const contact = (n: number) => (r: StoredResource) => r.rels.contact === CONTACT(n);
const is = (field: string, value: string) => (r: StoredResource) => r.attributes[field] === value;

const paths = {
  interactions: () => `/v3/orgs/${tenant.org.id}/customers/interactions`,
  appointments: () => `/v3/orgs/${tenant.org.id}/customers/appointments`,
};
const window = (field: string) => `filter[${field}.since]=${SINCE}&filter[${field}.until]=${UNTIL}`;
const cases: [() => string, string, () => string[]][] = [
  [paths.interactions, `filter[contact]=${CONTACT(3)}`, byOccurrence(contact(3))],
  [paths.interactions, `filter[contact]=${CONTACT(3)}&sort=occurred_at`, byOccurrence(contact(3), false)],
  [paths.interactions, 'filter[channel]=sms', byOccurrence(is('channel', 'sms'))],
  [paths.interactions, 'filter[channel]=phone&sort=occurred_at', byOccurrence(is('channel', 'phone'), false)],
  [paths.interactions, window('occurred_at'), byOccurrence(within('occurred_at'))],
  [
    paths.interactions,
    `filter[contact]=${CONTACT(5)}&${window('occurred_at')}`,
    byOccurrence((r) => contact(5)(r) && within('occurred_at')(r)),
  ],
  [
    paths.interactions,
    `filter[channel]=email&filter[contact]=${CONTACT(1)}`,
    byOccurrence((r) => contact(1)(r) && is('channel', 'email')(r)),
  ],
  [paths.appointments, `filter[contact]=${CONTACT(7)}`, byStart(contact(7))],
  [paths.appointments, `filter[contact]=${CONTACT(7)}&sort=-starts_at`, byStart(contact(7), true)],
  [paths.appointments, 'filter[status]=no_show', byStart(is('status', 'no_show'))],
  [paths.appointments, 'filter[status]=scheduled&sort=-starts_at', byStart(is('status', 'scheduled'), true)],
  [paths.appointments, window('starts_at'), byStart(within('starts_at'))],
  [
    paths.appointments,
    `filter[status]=completed&${window('starts_at')}`,
    byStart((r) => is('status', 'completed')(r) && within('starts_at')(r)),
  ],
  [
    paths.appointments,
    `filter[contact]=${CONTACT(2)}&filter[status]=scheduled`,
    byStart((r) => contact(2)(r) && is('status', 'scheduled')(r)),
  ],
];

const measured = (path: string) => measuredGet(api, token, path);

describe('customer interactions and appointments: indexed filters answer what the partition filter answered', () => {
  it('by offset, every page and the total are those of the unindexed read (no other organisation’s records)', async () => {
    for (const [path, query, expected] of cases) {
      expect(expected().length, query).toBeGreaterThan(0);
      const res = await api.get(`${path()}?${query}&page[limit]=100`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected().slice(0, 100));
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected().length);
    }
  });

  it('by cursor, the walk gives every match once, in the same order', async () => {
    for (const [path, query, expected] of cases) {
      const walked = await idsByCursor(api, `${path()}?${query}&page[limit]=7&page[cursor]=`, token);
      expect(walked, query).toEqual(expected());
    }
  });
});

describe('customer interactions and appointments: an indexed filter reads what its page returns', () => {
  it('a cursor page reads at most 1.1× the items it returns, in the same calls at page sizes 3 and 8', async () => {
    const queries = [
      `${paths.interactions()}?filter[contact]=${CONTACT(4)}`,
      `${paths.interactions()}?filter[channel]=letter&sort=occurred_at`,
      `${paths.interactions()}?filter[occurred_at.since]=${SINCE}`,
      `${paths.appointments()}?filter[contact]=${CONTACT(9)}&sort=-starts_at`,
      `${paths.appointments()}?filter[status]=cancelled`,
      `${paths.appointments()}?filter[starts_at.until]=${UNTIL}&sort=-starts_at`,
    ];
    await expectCursorPagesRead(measured, queries, { limits: [3, 8], full: true });
  });

  it('an offset page of a counted filter reads its page and the count kept for the value, not every match', async () => {
    const share = (records: StoredResource[], keep: Keep) => records.filter(keep).length;
    for (const [query, total] of [
      [`${paths.interactions()}?filter[channel]=phone`, share(interactions, is('channel', 'phone'))],
      [`${paths.appointments()}?filter[status]=scheduled`, share(appointments, is('status', 'scheduled'))],
    ] as const) {
      const page = await measured(`${query}&page[offset]=10&page[limit]=5`);
      expect(page.body.meta.pagination.counts.resources, query).toBe(total);
      expect(page.body.data, query).toHaveLength(5);
      expect(page.items, query).toBe(10 + 5 + 1);
      expect(page.calls, query).toBe(2);
    }
  });

  it('a value longer than any key is refused in its partition key (400) and names nothing in a sort key, never a 5xx', async () => {
    const long = 'x'.repeat(3000);
    const byContact = await api.get(`${paths.appointments()}?filter[contact]=${long}`, token);
    expect(byContact.status, byContact.text.slice(0, 300)).toBe(400);
    expect(byContact.body.errors[0].detail).toMatch(/cannot be part of a key/);
    const byStatus = await api.get(`${paths.appointments()}?filter[status]=${long}`, token);
    expect(byStatus.status, byStatus.text.slice(0, 300)).toBe(200);
    expect(byStatus.body.data).toEqual([]);
  });

  it('meta.features names every filter indexed, so none is refused alone', async () => {
    for (const path of [paths.interactions(), paths.appointments()]) {
      const res = await api.get(`${path}?page[limit]=1`, token);
      expect(res.status, res.text).toBe(200);
      const { options, indexed } = res.body.meta.features.params.filter;
      expect(indexed, path).toEqual(options);
      expect(options.length, path).toBe(4);
    }
  });
});

describe('customer interactions and appointments: a change moves the entries', () => {
  let admin: string;
  let moves: Tenant;
  const base = () => `/v3/orgs/${moves.org.id}/customers`;
  const create = async (segment: string, type: string, attributes: object, relationships?: object) => {
    const res = await api.request('POST', `${base()}/${segment}`, {
      token: admin,
      body: { data: { type, attributes, ...(relationships && { relationships }) } },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const patch = async (segment: string, id: string, type: string, changes: object) => {
    const res = await api.request('PATCH', `${base()}/${segment}/${id}`, {
      token: admin,
      body: { data: { type, id, ...changes } },
    });
    expect(res.status, res.text).toBe(200);
  };
  const where = async (segment: string, query: string) => {
    const res = await api.get(`${base()}/${segment}?${query}&page[limit]=100`, admin);
    expect(res.status, res.text).toBe(200);
    return { ids: idsOf(res.body), total: res.body.meta.pagination.counts.resources as number };
  };
  const contactRel = (id: string) => ({ contact: { data: { type: 'customer-contacts', id } } });
  let first: string;
  let second: string;

  beforeAll(async () => {
    moves = await newTenant('Customer moves', 0);
    admin = await api.token(moves.admin);
    const person = (last_name: string) =>
      create('contacts', 'customer-contacts', { association: 'occupier', first_name: 'Sam', last_name });
    [first, second] = [await person('Okafor'), await person('Reyes')];
  });

  it('an appointment whose status, contact and start change is found under the new ones only, and counted there', async () => {
    const id = await create(
      'appointments',
      'customer-appointments',
      { starts_at: '2026-04-01T09:00:00Z', purpose: 'Survey', status: 'scheduled' },
      contactRel(first),
    );
    expect(await where('appointments', 'filter[status]=scheduled')).toEqual({ ids: [id], total: 1 });
    await patch('appointments', id, 'customer-appointments', {
      attributes: { status: 'completed', starts_at: '2026-05-01T09:00:00Z' },
      relationships: contactRel(second),
    });
    expect(await where('appointments', 'filter[status]=scheduled')).toEqual({ ids: [], total: 0 });
    expect(await where('appointments', 'filter[status]=completed')).toEqual({ ids: [id], total: 1 });
    expect((await where('appointments', `filter[contact]=${first}`)).ids).toEqual([]);
    expect((await where('appointments', `filter[contact]=${second}`)).ids).toEqual([id]);
    const april = 'filter[starts_at.since]=2026-04-01T00:00:00Z&filter[starts_at.until]=2026-04-30T23:59:59Z';
    expect((await where('appointments', `filter[contact]=${second}&${april}`)).ids).toEqual([]);
    expect((await where('appointments', `filter[status]=completed&${april}`)).ids).toEqual([]);
    const may = 'filter[starts_at.since]=2026-05-01T00:00:00Z';
    expect((await where('appointments', `filter[contact]=${second}&${may}`)).ids).toEqual([id]);
    const deleted = await api.request('DELETE', `${base()}/appointments/${id}`, { token: admin });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await where('appointments', 'filter[status]=completed')).toEqual({ ids: [], total: 0 });
    expect((await where('appointments', `filter[contact]=${second}`)).ids).toEqual([]);
  });

  it('an interaction whose contact and channel change is found under the new ones only', async () => {
    const id = await create(
      'interactions',
      'customer-interactions',
      { channel: 'phone', direction: 'inbound', occurred_at: '2026-04-02T10:00:00Z', summary: 'Asked' },
      contactRel(first),
    );
    await patch('interactions', id, 'customer-interactions', {
      attributes: { channel: 'email' },
      relationships: contactRel(second),
    });
    expect(await where('interactions', 'filter[channel]=phone')).toEqual({ ids: [], total: 0 });
    expect(await where('interactions', 'filter[channel]=email')).toEqual({ ids: [id], total: 1 });
    expect((await where('interactions', `filter[contact]=${first}`)).ids).toEqual([]);
    expect((await where('interactions', `filter[contact]=${second}`)).ids).toEqual([id]);
  });
});
