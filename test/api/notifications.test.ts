/**
 * Issue 43, the inbox: envelopes written by `writeEnvelopes` (the later consumer's call), listed, read,
 * marked and counted through the API, always the caller's own. Every count is checked against the honest
 * oracle: the whole inbox read through the API and counted.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, envelopeId, writeEnvelopes } from '#functions/notifications/envelopes';
import { startSession } from '#shared/auth/sessions';
import { grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let second: Tenant;
let admin: string;

const DAY = 86_400_000;
const CATEGORIES = ['people', 'safety', 'system'] as const;

interface Inbox {
  userId: string;
  headers: Record<string, string>;
}

/** A user's inbox, signed in: the user belongs to the organisations they hold a grant in (beforeAll). */
const inboxOf = async (userId: string): Promise<Inbox> => ({
  userId,
  headers: { 'x-session-token': (await startSession(userId)).token },
});

const envelope = (recipient: string, org: string, n: number, extra: Partial<Envelope> = {}): Envelope => ({
  recipient,
  org_id: org,
  event: { id: randomUUID(), name: 'invitation.accepted' },
  subject: { type: 'invitations', id: randomUUID() },
  actor: null,
  category: CATEGORIES[n % CATEGORIES.length] ?? 'people',
  severity: n % 5 === 0 ? 'critical' : 'info',
  title: `Notice ${n}`,
  body: `Something happened (${n}).`,
  link: null,
  requires_ack: false,
  channels: { email: false },
  ...extra,
});

const get = (inbox: Inbox, path: string) => api.request('GET', path, { headers: inbox.headers });
const send = (inbox: Inbox, method: string, path: string, body: object) =>
  api.request(method, path, { headers: inbox.headers, body });

/** Every envelope the API lists, archived or not, by cursor pages. */
const everything = async (inbox: Inbox) => {
  const all: { id: string; attributes: Record<string, unknown> }[] = [];
  for (const query of ['', 'filter[state]=archived&']) {
    let next: string | null = `/v3/notifications?${query}page[cursor]=&page[limit]=50`;
    while (next) {
      const res = await get(inbox, next);
      expect(res.status, res.text).toBe(200);
      all.push(...res.body.data);
      const link = res.body.links.next as string | null;
      next = link ? `${new URL(link).pathname}${new URL(link).search}` : null;
    }
  }
  return all;
};

/** The counts made by reading the whole inbox (archived envelopes are read, so never counted). */
const oracle = async (inbox: Inbox) => {
  const counts = {
    unseen: 0,
    unread: 0,
    categories: {} as Record<string, { unseen: number; unread: number }>,
  };
  for (const { attributes: a } of await everything(inbox)) {
    if (a.archived) continue;
    const unseen = a.state === 'unseen' ? 1 : 0;
    const unread = a.state === 'read' ? 0 : 1;
    if (!unseen && !unread) continue;
    counts.unseen += unseen;
    counts.unread += unread;
    const of = counts.categories[String(a.category)] ?? { unseen: 0, unread: 0 };
    counts.categories[String(a.category)] = { unseen: of.unseen + unseen, unread: of.unread + unread };
  }
  return counts;
};

const countsOf = async (inbox: Inbox) => {
  const res = await get(inbox, '/v3/notifications/counts');
  expect(res.status, res.text).toBe(200);
  return res.body.data.attributes;
};

const expectExactCounts = async (inbox: Inbox) => expect(await countsOf(inbox)).toEqual(await oracle(inbox));

beforeAll(async () => {
  api = await startTestApi();
  [tenant, second] = await Promise.all([newTenant('Inbox Org', 4), newTenant('Inbox Second', 1)]);
  admin = await api.token(tenant.admin);
  for (const { org, people } of [tenant, second])
    for (const person of people) await grantRole(org.id, 'viewer', 'user', person.id);
});
afterAll(() => api.close());

const personId = (i: number) => tenant.people[i]?.id ?? '';

describe('writing envelopes', () => {
  it('a redelivered event writes nothing twice and still writes the missing envelopes, counted once', async () => {
    const inbox = await inboxOf(personId(0));
    const event = { id: randomUUID(), name: 'invitation.accepted' };
    const first = [envelope(inbox.userId, tenant.org.id, 0, { event })];
    expect((await writeEnvelopes(first)).written).toBe(1);
    const redelivered = [
      ...first,
      envelope(inbox.userId, tenant.org.id, 1, { event: { id: randomUUID(), name: 'invitation.accepted' } }),
    ];
    expect((await writeEnvelopes(redelivered)).written).toBe(1);
    expect((await writeEnvelopes(redelivered)).written).toBe(0);
    const listed = await everything(inbox);
    expect(listed.map((e) => e.id).sort()).toEqual(
      redelivered.map((e) => envelopeId(e.event.id, inbox.userId)).sort(),
    );
    expect(await countsOf(inbox)).toMatchObject({ unseen: 2, unread: 2 });
    await expectExactCounts(inbox);
  });

  it('writes envelopes written at once for one inbox with exact counts (concurrent writes go round again)', async () => {
    const inbox = await inboxOf(personId(1));
    await Promise.all(
      Array.from({ length: 4 }, (_, batch) =>
        writeEnvelopes(
          Array.from({ length: 5 }, (_, i) => envelope(inbox.userId, tenant.org.id, batch * 5 + i)),
        ),
      ),
    );
    expect((await everything(inbox)).length).toBe(20);
    await expectExactCounts(inbox);
  });
});

describe('the inbox API', () => {
  let inbox: Inbox;
  let ids: string[];
  beforeAll(async () => {
    inbox = await inboxOf(personId(2));
    const written = Array.from({ length: 12 }, (_, i) => envelope(inbox.userId, tenant.org.id, i));
    for (const e of written) await writeEnvelopes([e]);
    ids = written.map((e) => envelopeId(e.event.id, inbox.userId));
  });

  it('lists the caller’s envelopes newest first by arrival, by cursor pages without gaps or repeats', async () => {
    const listed = (await everything(inbox)).map((e) => e.id);
    expect(listed).toEqual([...ids].reverse());
    const page = await get(inbox, '/v3/notifications?page[limit]=5');
    expect(page.body.data.map((e: { id: string }) => e.id)).toEqual([...ids].reverse().slice(0, 5));
  });

  it('filters by category, severity and organisation; a value outside the set is a 400 naming it', async () => {
    const safety = await get(inbox, '/v3/notifications?filter[category]=safety');
    expect(
      safety.body.data.every((e: { attributes: { category: string } }) => e.attributes.category === 'safety'),
    ).toBe(true);
    expect(safety.body.data.length).toBe(4);
    const critical = await get(inbox, '/v3/notifications?filter[severity]=critical');
    expect(critical.body.data.length).toBe(3);
    const elsewhere = await get(inbox, `/v3/notifications?filter[organisation]=${second.org.id}`);
    expect(elsewhere.body.data).toEqual([]);
    for (const bad of ['filter[category]=gossip', 'filter[severity]=loud', 'filter[state]=read']) {
      const res = await get(inbox, `/v3/notifications?${bad}`);
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors[0].source.parameter).toBe(bad.split('=')[0]);
    }
  });

  it('reads one envelope; PATCH flips its state back and forth with counts exact', async () => {
    const id = ids[0] ?? '';
    const one = await get(inbox, `/v3/notifications/${id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.data.attributes).toMatchObject({ state: 'unseen', saved: false, archived: false });
    for (const state of ['seen', 'read', 'unread', 'read', 'unread'] as const) {
      const res = await send(inbox, 'PATCH', `/v3/notifications/${id}`, {
        data: { type: 'notifications', id, attributes: { state } },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.attributes.state).toBe(state === 'unread' ? 'seen' : state);
      await expectExactCounts(inbox);
    }
  });

  it('saving removes the expiry and unsaving sets it again; archiving reads it and hides it unless asked', async () => {
    const id = ids[1] ?? '';
    const patch = (attributes: object) =>
      send(inbox, 'PATCH', `/v3/notifications/${id}`, { data: { type: 'notifications', id, attributes } });
    expect((await patch({ saved: true })).body.data.attributes.saved).toBe(true);
    const saved = await get(inbox, '/v3/notifications?filter[state]=saved');
    expect(saved.body.data.map((e: { id: string }) => e.id)).toEqual([id]);
    await expectExactCounts(inbox);
    expect((await patch({ saved: false })).body.data.attributes.saved).toBe(false);
    await expectExactCounts(inbox);
    const archived = await patch({ archived: true });
    expect(archived.body.data.attributes).toMatchObject({ archived: true, state: 'read' });
    const listed = (await get(inbox, '/v3/notifications?page[limit]=100')).body.data.map(
      (e: { id: string }) => e.id,
    );
    expect(listed).not.toContain(id);
    const onlyArchived = await get(inbox, '/v3/notifications?filter[state]=archived');
    expect(onlyArchived.body.data.map((e: { id: string }) => e.id)).toEqual([id]);
    await expectExactCounts(inbox);
  });

  // `acknowledged` is taken since the acknowledgement part: notification-acknowledgements.test.ts.
  it('PATCH refuses unknown members, a state it cannot go back to, and a mismatched id with a 400, writing nothing', async () => {
    const id = ids[2] ?? '';
    const before = await get(inbox, `/v3/notifications/${id}`);
    for (const attributes of [{ colour: 'red' }, { state: 'unseen' }]) {
      const res = await send(inbox, 'PATCH', `/v3/notifications/${id}`, {
        data: { type: 'notifications', id, attributes },
      });
      expect(res.status, res.text).toBe(400);
    }
    const wrongId = await send(inbox, 'PATCH', `/v3/notifications/${id}`, {
      data: { type: 'notifications', id: ids[3], attributes: { state: 'read' } },
    });
    expect(wrongId.status).toBe(400);
    expect((await get(inbox, `/v3/notifications/${id}`)).body.data).toEqual(before.body.data);
  });
});

describe('marks', () => {
  it('marking by ids and through a position keeps the counts exact, with later arrivals unmarked', async () => {
    const inbox = await inboxOf(personId(3));
    const written = Array.from({ length: 10 }, (_, i) => envelope(inbox.userId, tenant.org.id, i));
    for (const e of written) await writeEnvelopes([e]);
    const ids = written.map((e) => envelopeId(e.event.id, inbox.userId));
    const mark = (attributes: object) =>
      send(inbox, 'POST', '/v3/notifications/mark', { data: { type: 'notification-marks', attributes } });

    const byIds = await mark({ action: 'seen', ids: ids.slice(0, 3) });
    expect(byIds.status, byIds.text).toBe(200);
    expect(byIds.body.data.attributes).toEqual(await oracle(inbox));
    expect(byIds.body.data.attributes).toMatchObject({ unseen: 7, unread: 10 });

    const through = await mark({ action: 'read', through: ids[5] });
    expect(through.body.data.attributes).toMatchObject({ unseen: 4, unread: 4 });
    await expectExactCounts(inbox);

    // Marked unread after the watermark passed it: its own mark wins, until the next mark.
    const id = ids[2] ?? '';
    await send(inbox, 'PATCH', `/v3/notifications/${id}`, {
      data: { type: 'notifications', id, attributes: { state: 'unread' } },
    });
    expect(await countsOf(inbox)).toMatchObject({ unseen: 4, unread: 5 });
    await expectExactCounts(inbox);

    const late = envelope(inbox.userId, tenant.org.id, 99);
    await writeEnvelopes([late]);
    const all = await mark({ action: 'read', through: 'now' });
    expect(all.body.data.attributes).toMatchObject({ unseen: 0, unread: 0, categories: {} });
    await expectExactCounts(inbox);

    const after = envelope(inbox.userId, tenant.org.id, 100);
    await writeEnvelopes([after]);
    expect(await countsOf(inbox)).toMatchObject({ unseen: 1, unread: 1 });
    await expectExactCounts(inbox);

    const archiveAll = await mark({ action: 'archive', through: 'now' });
    expect(archiveAll.body.data.attributes).toMatchObject({ unseen: 0, unread: 0 });
    expect((await get(inbox, '/v3/notifications')).body.data).toEqual([]);
    await expectExactCounts(inbox);
  });

  it('a mark naming another’s envelope, or both ids and through, or more than 100 ids, is a 400 writing nothing', async () => {
    const [mine, theirs] = await Promise.all([
      inboxOf(tenant.people[0]?.id ?? ''),
      inboxOf(tenant.people[1]?.id ?? ''),
    ]);
    const foreign = envelope(theirs.userId, tenant.org.id, 1);
    await writeEnvelopes([foreign]);
    const before = await countsOf(theirs);
    const foreignId = envelopeId(foreign.event.id, theirs.userId);
    for (const attributes of [
      { action: 'read', ids: [foreignId] },
      { action: 'read', through: foreignId },
      { action: 'read', ids: [foreignId], through: 'now' },
      { action: 'read', ids: Array.from({ length: 101 }, () => randomUUID()) },
      { action: 'shout', through: 'now' },
    ]) {
      const res = await send(mine, 'POST', '/v3/notifications/mark', {
        data: { type: 'notification-marks', attributes },
      });
      expect(res.status, res.text).toBe(400);
    }
    expect(await countsOf(theirs)).toEqual(before);
  });
});

describe('expiry', () => {
  it('envelopes past their 90 days leave the list and the counts with no write; saved ones stay', async () => {
    const [person] = second.people;
    const inbox = await inboxOf(person?.id ?? '');
    const at = (daysAgo: number) => () => Date.now() - daysAgo * DAY;
    const old = envelope(inbox.userId, second.org.id, 1);
    const recent = envelope(inbox.userId, second.org.id, 2);
    const kept = envelope(inbox.userId, second.org.id, 3);
    await writeEnvelopes([old], at(92));
    await writeEnvelopes([kept], at(89));
    await writeEnvelopes([recent], at(1));
    const keptId = envelopeId(kept.event.id, inbox.userId);
    const saved = await send(inbox, 'PATCH', `/v3/notifications/${keptId}`, {
      data: { type: 'notifications', id: keptId, attributes: { saved: true } },
    });
    expect(saved.status, saved.text).toBe(200);
    const listed = (await everything(inbox)).map((e) => e.id);
    expect(listed).toEqual([envelopeId(recent.event.id, inbox.userId), keptId]);
    expect(await countsOf(inbox)).toMatchObject({ unseen: 2, unread: 2 });
    await expectExactCounts(inbox);
    const gone = await get(inbox, `/v3/notifications/${envelopeId(old.event.id, inbox.userId)}`);
    expect(gone.status).toBe(404);
  });
});

describe('whose inbox', () => {
  it('a service account has no inbox: 403 with a detail saying so', async () => {
    for (const path of [
      '/v3/notifications',
      '/v3/notifications/counts',
      `/v3/notifications/${randomUUID()}`,
    ]) {
      const res = await api.request('GET', path, { token: admin });
      expect(res.status, res.text).toBe(403);
      expect(res.body.errors[0].detail).toMatch(/service accounts have no inbox/i);
    }
  });

  it('another user’s envelope, in the same organisation, is 404 on GET and PATCH and never listed or counted', async () => {
    const [owner, other] = await Promise.all([
      inboxOf(tenant.people[0]?.id ?? ''),
      inboxOf(tenant.people[2]?.id ?? ''),
    ]);
    const theirs = envelope(owner.userId, tenant.org.id, 7);
    await writeEnvelopes([theirs]);
    const id = envelopeId(theirs.event.id, owner.userId);
    const countsBefore = await countsOf(other);
    expect((await get(other, `/v3/notifications/${id}`)).status).toBe(404);
    const patched = await send(other, 'PATCH', `/v3/notifications/${id}`, {
      data: { type: 'notifications', id, attributes: { state: 'read' } },
    });
    expect(patched.status).toBe(404);
    expect((await everything(other)).map((e) => e.id)).not.toContain(id);
    expect(await countsOf(other)).toEqual(countsBefore);
    expect((await get(owner, `/v3/notifications/${id}`)).body.data.attributes.state).toBe('unseen');
  });

  it('an envelope of an organisation the caller has left is not shown, listed or counted', async () => {
    const left = await newTenant('Inbox Left', 1);
    const userId = left.people[0]?.id ?? '';
    const grant = await grantRole(left.org.id, 'viewer', 'user', userId);
    const inbox = await inboxOf(userId);
    const there = envelope(userId, left.org.id, 1);
    await writeEnvelopes([there]);
    const id = envelopeId(there.event.id, userId);
    expect((await get(inbox, `/v3/notifications/${id}`)).status).toBe(200);
    const before = await countsOf(inbox);
    const revoked = await api.request('DELETE', `/v3/orgs/${left.org.id}/iam/grants/${grant.id}`, {
      token: await api.token(left.admin),
    });
    expect(revoked.status, revoked.text).toBe(204);
    const again = await inboxOf(userId);
    expect((await get(again, `/v3/notifications/${id}`)).status).toBe(404);
    expect((await everything(again)).map((e) => e.id)).not.toContain(id);
    expect((await countsOf(again)).unread).toBe(before.unread - 1);
  });
});

describe('concurrency', () => {
  it('envelopes arriving while "mark all read" runs are never lost from the counts', async () => {
    const [person] = second.people;
    const inbox = await inboxOf(person?.id ?? '');
    const markAll = () =>
      send(inbox, 'POST', '/v3/notifications/mark', {
        data: { type: 'notification-marks', attributes: { action: 'read', through: 'now' } },
      });
    const results = await Promise.all([
      ...Array.from({ length: 4 }, (_, batch) =>
        writeEnvelopes(
          Array.from({ length: 3 }, (_, i) => envelope(inbox.userId, second.org.id, batch * 3 + i)),
        ),
      ),
      markAll().then((res) => res.status),
      markAll().then((res) => res.status),
    ]);
    expect(results.slice(4)).toEqual([200, 200]);
    await expectExactCounts(inbox);
  });
});
