/**
 * Issue 43, notices: the sender's side. A notice names its recipients (users, teams, everyone) of one
 * organisation, counts the active users they reach when sent, and is never changed once sent; what it
 * names that the organisation does not hold is a 422 at its pointer, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noticeRecipients } from '#functions/notifications/notice-recipients';
import { notices } from '#functions/notifications/notices';
import { startSession } from '#shared/auth/sessions';
import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import { createTeam, createUser, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { latestEvent } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;
let viewer: string;
let otherAdmin: string;
let sender: Record<string, string>;
let crew: string;
let otherTeam: string;
let othersTeam: string;

const ids = (t: Tenant) => t.people.map((p) => p.id);
const at = (t: Tenant, i: number) => ids(t)[i] ?? '';

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Notices Org', 3), newTenant('Notices Other Org', 1)]);
  [admin, viewer, otherAdmin] = await Promise.all([
    api.token(tenant.admin),
    api.token(tenant.viewer),
    api.token(other.admin),
  ]);
  // The crew: the first two people. The third sends notices, and leads the supervisors.
  crew = (
    await createTeam(tenant.org.id, {
      name: 'Crew',
      description: '',
      memberIds: [at(tenant, 0), at(tenant, 1)],
    })
  ).id;
  otherTeam = (
    await createTeam(tenant.org.id, { name: 'Supervisors', description: '', memberIds: [at(tenant, 2)] })
  ).id;
  othersTeam = (
    await createTeam(other.org.id, { name: 'Theirs', description: '', memberIds: [at(other, 0)] })
  ).id;
  const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/roles`, {
    token: admin,
    body: { data: { type: 'roles', attributes: { name: 'Notice sender', permissions: ['notices:send'] } } },
  });
  expect(role.status, role.text).toBe(201);
  await grantRole(tenant.org.id, role.body.data.id, 'user', at(tenant, 2));
  sender = { 'x-session-token': (await startSession(at(tenant, 2))).token };
});
afterAll(() => api.close());

type Body = Record<string, unknown>;
const notice = (attributes: Body, relationships?: Body) => ({
  data: {
    type: 'notices',
    attributes: { title: 'Stop work', body: 'Stop all lifting now.', severity: 'critical', ...attributes },
    ...(relationships && { relationships }),
  },
});
const send = (
  body: object,
  credentials: { token?: string; headers?: Record<string, string> } = { token: admin },
) => api.request('POST', `/v3/orgs/${tenant.org.id}/notices`, { ...credentials, body });
const total = async () =>
  (await api.get(`/v3/orgs/${tenant.org.id}/notices?page[limit]=1`, admin)).body.meta.pagination.total;
const stored = async (id: string) =>
  (await getItem<StoredResource>(notices.keyOf(tenant.org.id, id))) as StoredResource;
const pagesOf = async (record: StoredResource) => {
  const pages: string[][] = [];
  for await (const page of noticeRecipients(record)) pages.push(page.map(({ id }) => id));
  return pages;
};
const teamRel = (id: string) => ({ sender_team: { data: { type: 'teams', id } } });

describe('sending a notice', () => {
  it('names users and teams, counts each active user they reach once, and defaults to safety', async () => {
    const res = await send(notice({ recipients: { users: [at(tenant, 0)], teams: [crew] } }));
    expect(res.status, res.text).toBe(201);
    const { attributes, relationships } = res.body.data;
    expect(attributes).toMatchObject({
      category: 'safety',
      severity: 'critical',
      requires_ack: false,
      escalate_after: null,
      recipients: { users: [at(tenant, 0)], teams: [crew], everyone: false },
      recipient_count: 2,
    });
    // A service account may send (a system integration raising a safety alert).
    expect(relationships.sender_service_account.data).toMatchObject({ type: 'service-accounts' });
    expect(relationships.sender.data).toBeNull();
    const read = await api.get(`/v3/notices/${res.body.data.id}`, admin);
    expect(read.status).toBe(200);
    expect(read.body.data.attributes).toEqual(attributes);
  });

  it('notice.created carries the recipients as sent (never the resolved users), for the fan-out', async () => {
    const res = await send(notice({ recipients: { everyone: true } }));
    expect(res.status, res.text).toBe(201);
    const event = await latestEvent(tenant.org.id, 'notice.created', res.body.data.id);
    const data = event.data as { attributes: Body };
    expect(data.attributes.recipients).toEqual({ users: [], teams: [], everyone: true });
  });

  it('a user sends a notice requiring acknowledgement, escalating to a team they belong to', async () => {
    const res = await send(
      notice(
        { requires_ack: true, escalate_after: 'PT2H', recipients: { teams: [crew] } },
        teamRel(otherTeam),
      ),
      { headers: sender },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ requires_ack: true, escalate_after: 'PT2H' });
    expect(res.body.data.relationships.sender.data).toEqual({ type: 'users', id: at(tenant, 2) });
    expect(res.body.data.relationships.sender_team.data).toEqual({ type: 'teams', id: otherTeam });
  });
});

describe('whom a notice reaches', () => {
  it('everyone is the active users now; named suspended users are not counted; the reader pages by 100', async () => {
    const big = await newTenant('Notices Everyone Org', 2);
    const token = await api.token(big.admin);
    const many = await Promise.all(
      Array.from({ length: 103 }, (_, i) =>
        createUser(big.org.id, { email: `w${i}@everyone.example`, first_name: 'W', last_name: `${i}` }),
      ),
    );
    const suspended = at(big, 0);
    const moved = await api.request('POST', `/v3/users/${suspended}/suspend`, { token });
    expect(moved.status, moved.text).toBe(200);
    const post = (recipients: Body) =>
      api.request('POST', `/v3/orgs/${big.org.id}/notices`, { token, body: notice({ recipients }) });

    const everyone = await post({ everyone: true, users: [suspended] });
    expect(everyone.status, everyone.text).toBe(201);
    expect(everyone.body.data.attributes.recipient_count).toBe(104);
    const record = (await getItem<StoredResource>(
      notices.keyOf(big.org.id, everyone.body.data.id),
    )) as StoredResource;
    const pages = await pagesOf(record);
    expect(pages.map((p) => p.length)).toEqual([100, 4]);
    expect(new Set(pages.flat())).toEqual(new Set([at(big, 1), ...many.map((u) => u.id)]));

    const named = await post({ users: [suspended, at(big, 1), at(big, 1)] });
    expect(named.body.data.attributes.recipient_count).toBe(1);
    expect(
      await pagesOf(
        (await getItem<StoredResource>(notices.keyOf(big.org.id, named.body.data.id))) as StoredResource,
      ),
    ).toEqual([[at(big, 1)]]);
  }, 60_000); // 105 users made first: seconds alone, longer beside the every-route files

  it("a team's members and named users resolve to each user once", async () => {
    const res = await send(notice({ recipients: { users: [at(tenant, 1), at(tenant, 2)], teams: [crew] } }));
    expect(res.body.data.attributes.recipient_count).toBe(3);
    const pages = await pagesOf(await stored(res.body.data.id));
    expect(pages.flat().sort()).toEqual(ids(tenant).slice().sort());
  });
});

describe('what a notice names must be the organisation’s (422 at its pointer, nothing written)', () => {
  const refused = async (
    body: object,
    pointer: string,
    credentials?: { headers: Record<string, string> },
  ) => {
    const before = await total();
    const res = await send(body, credentials);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain(pointer);
    expect(await total()).toBe(before);
    return res;
  };

  it('a user or team of another organisation, or an unknown one, is 422 naming it', async () => {
    await refused(
      notice({ recipients: { users: [at(tenant, 0), at(other, 0)] } }),
      '/data/attributes/recipients/users/1',
    );
    await refused(notice({ recipients: { teams: [othersTeam] } }), '/data/attributes/recipients/teams/0');
    await refused(
      notice({ recipients: { users: ['01900000-0000-7000-8000-00000000dead'] } }),
      '/data/attributes/recipients/users/0',
    );
  });

  it('a service account cannot be a recipient (it has no inbox)', async () => {
    await refused(
      notice({ recipients: { users: [tenant.admin.principalId] } }),
      '/data/attributes/recipients/users/0',
    );
  });

  it('a notice names someone', async () => {
    await refused(notice({ recipients: { users: [], everyone: false } }), '/data/attributes/recipients');
  });

  it('escalate_after only with requires_ack, 15 minutes to 7 days, of fixed units', async () => {
    const escalating = (escalate_after: string, requires_ack = true) =>
      notice({ requires_ack, escalate_after, recipients: { everyone: true } }, teamRel(crew));
    await refused(escalating('PT2H', false), '/data/attributes/escalate_after');
    await refused(escalating('PT14M'), '/data/attributes/escalate_after');
    await refused(escalating('P8D'), '/data/attributes/escalate_after');
    await refused(escalating('P1M'), '/data/attributes/escalate_after');
    await refused(escalating('two hours'), '/data/attributes/escalate_after');
    expect((await send(escalating('PT15M'))).status).toBe(201);
    expect((await send(escalating('P7D'))).status).toBe(201);
  });

  it('a notice requiring acknowledgement names its sender team: of the organisation, and the sender’s', async () => {
    await refused(
      notice({ requires_ack: true, recipients: { everyone: true } }),
      '/data/relationships/sender_team',
    );
    await refused(
      notice({ requires_ack: true, recipients: { everyone: true } }, teamRel(othersTeam)),
      '/data/relationships/sender_team/data/id',
    );
    await refused(
      notice({ requires_ack: true, recipients: { everyone: true } }, teamRel(crew)),
      '/data/relationships/sender_team/data/id',
      { headers: sender },
    );
  });

  it('the document’s shape is a 400: unknown members, a long title, an unknown category', async () => {
    const before = await total();
    const unknown = await send(notice({ recipients: { everyone: true }, priority: 'high' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].source.pointer).toBe('/data/attributes/priority');
    const long = await send(notice({ title: 'x'.repeat(121), recipients: { everyone: true } }));
    expect(long.status).toBe(400);
    expect(long.body.errors[0].source.pointer).toBe('/data/attributes/title');
    const category = await send(notice({ category: 'gossip', recipients: { everyone: true } }));
    expect(category.body.errors[0].source.pointer).toBe('/data/attributes/category');
    expect(await total()).toBe(before);
  });
});

describe('reading notices', () => {
  it('lists newest first, by category and severity, requires_ack beside an indexed filter', async () => {
    const first = await send(
      notice({ category: 'people', severity: 'info', recipients: { everyone: true } }),
    );
    const second = await send(
      notice({ category: 'people', severity: 'warning', recipients: { everyone: true } }),
    );
    const people = await api.get(`/v3/orgs/${tenant.org.id}/notices?filter[category]=people`, admin);
    expect(people.body.data.map((n: { id: string }) => n.id)).toEqual([
      second.body.data.id,
      first.body.data.id,
    ]);
    const info = await api.get(`/v3/orgs/${tenant.org.id}/notices?filter[severity]=info`, admin);
    expect(info.body.data.map((n: { id: string }) => n.id)).toEqual([first.body.data.id]);
    const acked = await api.get(
      `/v3/orgs/${tenant.org.id}/notices?filter[category]=safety&filter[requires_ack]=true`,
      admin,
    );
    expect(acked.body.data.length).toBeGreaterThan(0);
    expect(acked.body.data.every((n: { attributes: Body }) => n.attributes.requires_ack === true)).toBe(true);
  });

  it('a notice is a record of what was said: no PATCH, no DELETE (405)', async () => {
    const res = await send(notice({ recipients: { everyone: true } }));
    const path = `/v3/notices/${res.body.data.id}`;
    expect((await api.request('PATCH', path, { token: admin, body: {} })).status).toBe(405);
    expect((await api.request('DELETE', path, { token: admin })).status).toBe(405);
  });

  it('another organisation’s notice is 404, and never listed', async () => {
    const res = await send(notice({ recipients: { everyone: true } }));
    expect((await api.get(`/v3/notices/${res.body.data.id}`, otherAdmin)).status).toBe(404);
    const theirs = await api.get(`/v3/orgs/${other.org.id}/notices`, otherAdmin);
    expect(theirs.body.data).toEqual([]);
  });

  it('sending and reading notices take notices:send (403 without it)', async () => {
    expect((await send(notice({ recipients: { everyone: true } }), { token: viewer })).status).toBe(403);
    expect((await api.get(`/v3/orgs/${tenant.org.id}/notices`, viewer)).status).toBe(403);
    const res = await send(notice({ recipients: { everyone: true } }));
    expect((await api.get(`/v3/notices/${res.body.data.id}`, viewer)).status).toBe(403);
  });
});
