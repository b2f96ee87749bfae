/**
 * Issue 43, acknowledgement and escalation: an acknowledgement-required envelope is written with its
 * acknowledgement record (writeEnvelopes, the consumer's call); only its recipient acknowledges it, once,
 * with a `notification.acknowledged` event (audited); the organisation lists who has and who has not; an
 * envelope still unacknowledged when its escalation is due is e-mailed again and told to the sender's
 * team, once, however often the runner runs. The runner's clock is moved, never waited for.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDue } from '#functions/due-work/run';
import { escalationId } from '#functions/notifications/ack-escalation';
import { type Envelope, envelopeId, writeEnvelopes } from '#functions/notifications/envelopes';
import { startSession } from '#shared/auth/sessions';
import type { StoredResource } from '#shared/data/stored-resource';
import { createTeam, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents, latestEvent } from '../support/event-stream';
import { mailsTo } from '../support/mailbox';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;
let otherAdmin: string;
let team: string;

const HOUR = 3_600_000;
const person = (t: Tenant, i: number) => t.people[i]?.id ?? '';
const sessionOf = async (userId: string) => ({ 'x-session-token': (await startSession(userId)).token });

/** An acknowledgement-required envelope of a notice's `notice.created`, as the consumer renders it. */
const ackEnvelope = (
  recipient: string,
  org: string,
  event: { id: string; name: string },
  notice: string,
  escalation: Envelope['escalation'] = { after_seconds: 3600, sender_team: null },
): Envelope => ({
  recipient,
  org_id: org,
  event,
  subject: { type: 'notices', id: notice },
  actor: null,
  category: 'safety',
  severity: 'critical',
  title: 'Stop work',
  body: 'Stop all lifting now.',
  link: null,
  requires_ack: true,
  channels: { email: true },
  escalation,
});

/** One notice's event sent to people 0..n-1 of the tenant. */
const sent = async (n: number, escalation?: Envelope['escalation'], title = 'Stop work') => {
  const event = { id: randomUUID(), name: 'notice.created' };
  const notice = randomUUID();
  const recipients = Array.from({ length: n }, (_, i) => person(tenant, i));
  await writeEnvelopes(
    recipients.map((r) => ({ ...ackEnvelope(r, tenant.org.id, event, notice, escalation), title })),
  );
  return { event, notice, recipients };
};

const acknowledge = async (userId: string, eventId: string, acknowledged: unknown = true) =>
  api.request('PATCH', `/v3/notifications/${envelopeId(eventId, userId)}`, {
    headers: await sessionOf(userId),
    body: {
      data: { type: 'notifications', id: envelopeId(eventId, userId), attributes: { acknowledged } },
    },
  });

const listed = (filter: string, token = admin, org = tenant.org.id) =>
  api.get(`/v3/orgs/${org}/notification-acknowledgements?${filter}&page[limit]=100`, token);

type Row = {
  id: string;
  attributes: { acknowledged_at: string | null };
  relationships: Record<string, { data: { id: string } | null }>;
};
const rows = (body: { data: Row[] }) =>
  Object.fromEntries(
    body.data.map((r) => [r.relationships.recipient?.data?.id, r.attributes.acknowledged_at]),
  );

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Ack Org', 5), newTenant('Ack Other', 1)]);
  [admin, otherAdmin] = await Promise.all([api.token(tenant.admin), api.token(other.admin)]);
  for (const t of [tenant, other])
    for (const p of t.people) await grantRole(t.org.id, 'viewer', 'user', p.id);
  team = (
    await createTeam(tenant.org.id, {
      name: 'Lifting supervisors',
      description: '',
      memberIds: [person(tenant, 3), person(tenant, 4)],
    })
  ).id;
});
afterAll(() => api.close());

describe('acknowledging an envelope', () => {
  it('sets acknowledged_at once, reads the envelope, and commits notification.acknowledged, audited', async () => {
    const { event, recipients } = await sent(1);
    const [me = ''] = recipients;
    const res = await acknowledge(me, event.id);
    expect(res.status, res.text).toBe(200);
    const at = res.body.data.attributes.acknowledged_at;
    expect(typeof at).toBe('string');
    expect(res.body.data.attributes.state).toBe('read');
    const read = await api.request('GET', `/v3/notifications/${envelopeId(event.id, me)}`, {
      headers: await sessionOf(me),
    });
    expect(read.body.data.attributes.acknowledged_at).toBe(at);
    const again = await acknowledge(me, event.id);
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.attributes.acknowledged_at).toBe(at);
    const committed = await latestEvent(tenant.org.id, 'notification.acknowledged', envelopeId(event.id, me));
    expect(committed.data).toMatchObject({
      type: 'notification-acknowledgements',
      attributes: { acknowledged_at: at, event },
      relationships: { recipient: { data: { type: 'users', id: me } } },
    });
    await deliverEvents(tenant.org.id);
    const audit = await api.get(
      `/v3/orgs/${tenant.org.id}/audit-events?filter[subject_id]=${envelopeId(event.id, me)}`,
      admin,
    );
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.data.map((e: { attributes: { action: string } }) => e.attributes.action)).toEqual([
      'notification.acknowledged',
    ]);
  });

  it('refuses acknowledged: false and an envelope that asks for no acknowledgement with a 422, writing nothing', async () => {
    const { event, recipients } = await sent(1);
    const [me = ''] = recipients;
    const refused = await acknowledge(me, event.id, false);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.errors[0].source.pointer).toBe('/data/attributes/acknowledged');
    const plain = { id: randomUUID(), name: 'invitation.accepted' };
    await writeEnvelopes([{ ...ackEnvelope(me, tenant.org.id, plain, randomUUID()), requires_ack: false }]);
    const notAsked = await acknowledge(me, plain.id);
    expect(notAsked.status, notAsked.text).toBe(422);
    expect(notAsked.body.errors[0].source.pointer).toBe('/data/attributes/acknowledged');
    const list = await listed(`filter[event]=${event.id}`);
    expect(rows(list.body)).toEqual({ [me]: null });
    const read = await api.request('GET', `/v3/notifications/${envelopeId(event.id, me)}`, {
      headers: await sessionOf(me),
    });
    expect(read.body.data.attributes).toMatchObject({ acknowledged_at: null, state: 'unseen' });
  });

  it('only the recipient acknowledges: another user of the organisation gets a 404 and nothing changes', async () => {
    const { event, recipients } = await sent(1);
    const [me = ''] = recipients;
    const id = envelopeId(event.id, me);
    const someoneElse = person(tenant, 1);
    const res = await api.request('PATCH', `/v3/notifications/${id}`, {
      headers: await sessionOf(someoneElse),
      body: { data: { type: 'notifications', id, attributes: { acknowledged: true } } },
    });
    expect(res.status, res.text).toBe(404);
    expect(rows((await listed(`filter[event]=${event.id}`)).body)).toEqual({ [me]: null });
  });
});

describe('who has acknowledged', () => {
  it('lists every recipient of the event with acknowledged_at or null, and counts them', async () => {
    const { event, notice, recipients } = await sent(3);
    expect((await acknowledge(recipients[1] ?? '', event.id)).status).toBe(200);
    for (const filter of [`filter[event]=${event.id}`, `filter[notice]=${notice}`]) {
      const res = await listed(filter);
      expect(res.status, res.text).toBe(200);
      const byRecipient = rows(res.body);
      expect(Object.keys(byRecipient).sort()).toEqual([...recipients].sort());
      expect(byRecipient[recipients[0] ?? '']).toBeNull();
      expect(typeof byRecipient[recipients[1] ?? '']).toBe('string');
      expect(res.body.meta.acknowledgements).toEqual({ recipients: 3, acknowledged: 1, outstanding: 2 });
    }
  });

  it('needs the event or the notice, as an id: else a 400 naming the parameter', async () => {
    expect((await listed('')).status).toBe(400);
    const bad = await listed('filter[event]=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.parameter).toBe('filter[event]');
  });

  it("another organisation's event answers an empty list, and another organisation's member never appears", async () => {
    const { event } = await sent(2);
    // The same event id told to the other organisation's member (as if it were theirs): never listed here.
    await writeEnvelopes([ackEnvelope(person(other, 0), other.org.id, event, randomUUID())]);
    const mine = await listed(`filter[event]=${event.id}`);
    expect(Object.keys(rows(mine.body))).not.toContain(person(other, 0));
    expect(mine.body.meta.acknowledgements.recipients).toBe(2);
    const theirs = await listed(`filter[event]=${event.id}`, otherAdmin, other.org.id);
    expect(Object.keys(rows(theirs.body))).toEqual([person(other, 0)]);
    const foreign = await sent(1);
    const empty = await listed(`filter[event]=${foreign.event.id}`, otherAdmin, other.org.id);
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.meta.acknowledgements).toEqual({ recipients: 0, acknowledged: 0, outstanding: 0 });
    const outside = await listed(`filter[event]=${foreign.event.id}`, otherAdmin);
    expect(outside.status).toBe(404);
  });
});

describe('escalation', () => {
  const inboxOf = async (userId: string) =>
    (await api.request('GET', '/v3/notifications?page[limit]=100', { headers: await sessionOf(userId) })).body
      .data as { id: string; attributes: { title: string; event: { id: string } } }[];
  const email = (i: number) => String(tenant.people[i]?.attributes.email);

  it('when due and unacknowledged: the e-mail again to the recipient and an envelope to each of the sender team, once', async () => {
    const title = `Stop work ${randomUUID()}`;
    const { event, recipients } = await sent(2, { after_seconds: 3600, sender_team: team }, title);
    const [late = '', prompt = ''] = recipients;
    expect((await acknowledge(prompt, event.id)).status).toBe(200);
    const resent = async (i: number) =>
      (await mailsTo(email(i))).filter((m) => m.subject === `Please acknowledge: ${title}`);
    const early = await runDue(Date.now() + HOUR / 2, { orgId: tenant.org.id });
    expect(early.byKind['notification-ack-escalation']).toBeUndefined();
    const run = await runDue(Date.now() + HOUR + 60_000, { orgId: tenant.org.id });
    expect(run.byKind['notification-ack-escalation']?.failed).toBe(0);
    expect(await resent(0)).toHaveLength(1);
    expect(await resent(1)).toHaveLength(0);
    const { first_name, last_name } = (
      (tenant.people[0] as StoredResource).attributes.profile as {
        personal: { first_name: string; last_name: string };
      }
    ).personal;
    const lateName = `${first_name} ${last_name}`;
    for (const member of [person(tenant, 3), person(tenant, 4)]) {
      const told = (await inboxOf(member)).filter(
        (e) => e.attributes.event.id === escalationId(envelopeId(event.id, late)),
      );
      expect(told.map((e) => e.attributes.title)).toEqual([`${lateName} has not acknowledged "${title}"`]);
    }
    const list = await listed(`filter[event]=${event.id}`);
    const lateRow = list.body.data.find((r: Row) => r.relationships.recipient?.data?.id === late);
    expect(lateRow.attributes.escalated_at).not.toBeNull();
    // The acknowledged one was disarmed when acknowledged: never escalated.
    const promptRow = list.body.data.find((r: Row) => r.relationships.recipient?.data?.id === prompt);
    expect(promptRow.attributes.escalated_at).toBeNull();
    expect(
      await latestEvent(tenant.org.id, 'notification.escalated', envelopeId(event.id, late)),
    ).toBeTruthy();
    // A re-run finds nothing due, and nothing more is sent or written.
    const rerun = await runDue(Date.now() + 2 * HOUR, { orgId: tenant.org.id });
    expect(rerun.byKind['notification-ack-escalation']?.ran ?? 0).toBe(0);
    expect(await resent(0)).toHaveLength(1);
  });

  it("a re-run of an escalation's work writes no second envelope to the team", async () => {
    const { event, recipients } = await sent(1, { after_seconds: 3600, sender_team: team });
    const id = envelopeId(event.id, recipients[0] ?? '');
    const { escalateUnacknowledged } = await import('#functions/notifications/ack-escalation');
    const entry = {
      pk: `ORG#${tenant.org.id}#notification-acknowledgements#${event.id}`,
      sk: id,
      kind: 'notification-ack-escalation',
      org_id: tenant.org.id,
      id,
      due: '',
    };
    await escalateUnacknowledged(entry, Date.now() + HOUR);
    await escalateUnacknowledged(entry, Date.now() + HOUR);
    const told = (await inboxOf(person(tenant, 3))).filter((e) => e.attributes.event.id === escalationId(id));
    expect(told).toHaveLength(1);
  });
});
