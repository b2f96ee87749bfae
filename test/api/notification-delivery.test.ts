/**
 * Issue 43, delivery: events become envelopes in the inboxes the rules name, through the API against the
 * local stack, the stream's consumer handed each organisation's new events (`deliverEvents`) as the stream
 * would. An invitation accepted tells its inviter; an award expiring tells its person and the approvers
 * (the runner's clock moved); a sign-in let through by an override tells the site's managers; a notice
 * tells whom it names. A redelivered event makes nothing twice, and a recipient without read permission
 * on the subject gets the rule's generic text and no link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDue } from '#functions/due-work/run';
import { startSession } from '#shared/auth/sessions';
import { grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { consume, deliverEvents, latestEvent, streamRecordOf } from '../support/event-stream';
import { headerOf, type Mail, mailsTo } from '../support/mailbox';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
/** people[0]: an admin (user); [1]: may override the gate, not read attendances; [2]: an award's holder; [3]: a notice's addressee. */
let inviter: string;
let gatekeeper: string;
let holder: string;
let addressee: string;
let site: string;

const DAY = 86_400_000;
const id = (i: number) => tenant.people[i]?.id ?? '';
const emailOf = (i: number) => String(tenant.people[i]?.attributes.email ?? '');
/** The mails to a user with this subject. */
const mailed = async (i: number, subject: string): Promise<Mail[]> =>
  (await mailsTo(emailOf(i))).filter((mail) => mail.subject === subject);
const sessions = new Map<string, Record<string, string>>();
const asUser = async (userId: string) => {
  const known = sessions.get(userId);
  if (known) return known;
  const headers = { 'x-session-token': (await startSession(userId)).token };
  sessions.set(userId, headers);
  return headers;
};

interface Listed {
  id: string;
  attributes: {
    title: string;
    body: string;
    link: string | null;
    event: { id: string; name: string };
  } & Record<string, unknown>;
  relationships: { subject: { data: { type: string; id: string } } };
}

/** The user's envelopes about one event (newest first). */
const inboxAbout = async (userId: string, eventId: string): Promise<Listed[]> => {
  const res = await api.request('GET', '/v3/notifications?page[limit]=100', {
    headers: await asUser(userId),
  });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Listed[]).filter((envelope) => envelope.attributes.event.id === eventId);
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Delivery Org', 5);
  admin = await api.token(tenant.admin);
  [inviter, gatekeeper, holder, addressee] = [id(0), id(1), id(2), id(3)];
  const role = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/roles`, {
    token: admin,
    body: {
      data: { type: 'roles', attributes: { name: 'Gatekeeper', permissions: ['site-attendances:override'] } },
    },
  });
  expect(role.status, role.text).toBe(201);
  await Promise.all([
    grantRole(tenant.org.id, 'admin', 'user', inviter),
    grantRole(tenant.org.id, role.body.data.id, 'user', gatekeeper),
    grantRole(tenant.org.id, 'viewer', 'user', holder),
    grantRole(tenant.org.id, 'viewer', 'user', addressee),
  ]);
  const location = await api.request('POST', `/v3/orgs/${tenant.org.id}/governance/locations`, {
    token: admin,
    body: { data: { type: 'locations', attributes: { name: 'Delivery depot' } } },
  });
  expect(location.status, location.text).toBe(201);
  site = location.body.data.id;
  await deliverEvents(tenant.org.id);
});
afterAll(() => api.close());

/** A guest worker let on site by the gate's override (no account: refused unless overridden). */
const overriddenSignIn = async () => {
  const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/site-attendances`, {
    token: admin,
    body: {
      data: {
        type: 'site-attendances',
        attributes: {
          method_in: 'kiosk',
          guest: { name: 'Day labourer' },
          override: { reason: 'Known to us.' },
        },
        relationships: { location: { data: { type: 'locations', id: site } } },
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body.data.attributes.checks.outcome).toBe('overridden');
  await deliverEvents(tenant.org.id);
  return latestEvent(tenant.org.id, 'site-attendance.created', res.body.data.id);
};

describe('the rules’ envelopes, in the right inboxes', () => {
  it('an invitation accepted tells its inviter, with the invitee’s address and a link to the invitation', async () => {
    const email = `delivered.${Date.now().toString(36)}@invited.example`;
    const invited = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/invitations`, {
      headers: await asUser(inviter),
      body: {
        data: {
          type: 'invitations',
          attributes: { email },
          relationships: { roles: { data: [{ type: 'roles', id: 'viewer' }] } },
        },
      },
    });
    expect(invited.status, invited.text).toBe(201);
    const token = /inv_[0-9a-f-]+\.[0-9a-f-]+\.[A-Za-z0-9_-]{43}/.exec(
      (await mailsTo(email)).at(-1)?.body.text ?? '',
    )?.[0];
    const accepted = await api.request('POST', '/v3/invitations/accept', {
      body: { data: { type: 'invitation-acceptances', attributes: { token } } },
    });
    expect(accepted.status, accepted.text).toBe(200);
    await deliverEvents(tenant.org.id);
    const event = await latestEvent(tenant.org.id, 'invitation.accepted', invited.body.data.id);
    const [envelope, ...more] = await inboxAbout(inviter, event.id);
    expect(more).toEqual([]);
    expect(envelope?.attributes).toMatchObject({
      title: 'Invitation accepted',
      body: `${email} accepted your invitation and has joined the organisation.`,
      link: `/v3/invitations/${invited.body.data.id}`,
      category: 'people',
      severity: 'info',
    });
    expect(envelope?.relationships.subject.data).toEqual({ type: 'invitations', id: invited.body.data.id });
    // Nobody else was told.
    expect(await inboxAbout(gatekeeper, event.id)).toEqual([]);
    // E-mail at once (the default): one mail, the envelope's delivery sent with SES's message id.
    const mails = (await mailed(0, 'Invitation accepted')).filter((mail) => mail.body.text?.includes(email));
    expect(mails).toHaveLength(1);
    const [delivered] = await inboxAbout(inviter, event.id);
    expect(delivered?.attributes.deliveries).toMatchObject({
      inbox: { status: 'sent' },
      email: { status: 'sent', message_id: mails[0]?.messageId },
    });
  });

  it('an award expiring (the runner’s clock moved) tells its person and the approvers', async () => {
    const post = (path: string, body: object) =>
      api.request('POST', `/v3/orgs/${tenant.org.id}/qualifications/${path}`, { token: admin, body });
    const type = await post('types', {
      data: {
        type: 'qualification-types',
        attributes: { kind: 'registration', name: 'Delivery card', has_expiry: true },
      },
    });
    expect(type.status, type.text).toBe(201);
    const expires = new Date(Date.now() + 40 * DAY).toISOString().slice(0, 10);
    const award = await post('awards', {
      data: {
        type: 'qualification-awards',
        attributes: { issued_at: new Date(Date.now() - DAY).toISOString().slice(0, 10), expires_at: expires },
        relationships: {
          person: { data: { type: 'users', id: holder } },
          qualification_type: { data: { type: 'qualification-types', id: type.body.data.id } },
        },
      },
    });
    expect(award.status, award.text).toBe(201);
    const approved = await api.request('POST', `/v3/qualification-awards/${award.body.data.id}/approve`, {
      token: admin,
      body: {},
    });
    expect(approved.status, approved.text).toBe(200);
    await runDue(Date.parse(`${expires}T00:00:00Z`) - 30 * DAY, { orgId: tenant.org.id });
    await deliverEvents(tenant.org.id);
    const event = await latestEvent(tenant.org.id, 'qualification-award.expiring', award.body.data.id);
    for (const user of [holder, inviter]) {
      const [envelope, ...more] = await inboxAbout(user, event.id);
      expect(more).toEqual([]);
      expect(envelope?.attributes).toMatchObject({ category: 'people', severity: 'warning' });
    }
    expect(await inboxAbout(gatekeeper, event.id)).toEqual([]);
  });

  it('a sign-in let through by an override tells the site’s managers (safety), and nobody else; its mail cannot be unsubscribed from', async () => {
    const before = (await mailed(1, 'Signed in with warnings')).length;
    const event = await overriddenSignIn();
    for (const user of [inviter, gatekeeper]) {
      const [envelope, ...more] = await inboxAbout(user, event.id);
      expect(more).toEqual([]);
      expect(envelope?.attributes).toMatchObject({ category: 'safety', severity: 'warning' });
    }
    expect(await inboxAbout(holder, event.id)).toEqual([]);
    const mails = await mailed(1, 'Signed in with warnings');
    expect(mails).toHaveLength(before + 1);
    expect(headerOf(mails.at(-1) as Mail, 'List-Unsubscribe')).toBeUndefined();
    expect(mails.at(-1)?.body.text).not.toContain('notification-unsubscribe');
  });

  it('a notice tells whom it names, what it says, in its own category and severity', async () => {
    const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/notices`, {
      headers: await asUser(inviter),
      body: {
        data: {
          type: 'notices',
          attributes: {
            title: 'Stop work',
            body: 'Stop all lifting now.',
            severity: 'critical',
            category: 'safety',
            recipients: { users: [addressee] },
          },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    await deliverEvents(tenant.org.id);
    const event = await latestEvent(tenant.org.id, 'notice.created', res.body.data.id);
    const [envelope, ...more] = await inboxAbout(addressee, event.id);
    expect(more).toEqual([]);
    // The addressee may not read notices (notices:send): told what it says, with no link.
    expect(envelope?.attributes).toMatchObject({
      title: 'Stop work',
      body: 'Stop all lifting now.',
      category: 'safety',
      severity: 'critical',
      link: null,
    });
    // The sender is not told of their own notice; nobody unnamed is.
    expect(await inboxAbout(inviter, event.id)).toEqual([]);
    expect(await inboxAbout(holder, event.id)).toEqual([]);
  });
});

describe('an acknowledgement-required notice, delivered', () => {
  it('arms each addressee’s escalation at the notice’s escalate_after, to its sender team', async () => {
    const team = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/teams`, {
      token: admin,
      body: { data: { type: 'teams', attributes: { name: `Supervisors ${Date.now()}` } } },
    });
    expect(team.status, team.text).toBe(201);
    // Sent by the organisation's service account, which may name any of its teams.
    const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/notices`, {
      token: admin,
      body: {
        data: {
          type: 'notices',
          attributes: {
            title: 'Stop work: crane',
            severity: 'critical',
            body: 'Stop all lifting now.',
            requires_ack: true,
            escalate_after: 'PT15M',
            recipients: { users: [addressee] },
          },
          relationships: { sender_team: { data: { type: 'teams', id: team.body.data.id } } },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    await deliverEvents(tenant.org.id);
    const listed = await api.request(
      'GET',
      `/v3/orgs/${tenant.org.id}/notification-acknowledgements?filter[notice]=${res.body.data.id}`,
      { token: admin },
    );
    expect(listed.status, listed.text).toBe(200);
    const [row, ...more] = listed.body.data;
    expect(more).toEqual([]);
    expect(row.relationships.recipient.data.id).toBe(addressee);
    expect(row.relationships.sender_team.data.id).toBe(team.body.data.id);
    // Due 15 minutes after the envelope was written (not the 2 h default of a rule's own).
    const due = Date.parse(row.attributes.escalate_at) - Date.parse(res.body.data.meta.created_at);
    expect(due).toBeGreaterThanOrEqual(15 * 60_000);
    expect(due).toBeLessThan(20 * 60_000);
  });
});

describe('an envelope never shows the recipient more than they may read', () => {
  it('a manager without site-attendances:view gets the rule’s generic text and no link; one with it, the details', async () => {
    const event = await overriddenSignIn();
    const [limited] = await inboxAbout(gatekeeper, event.id);
    expect(limited?.attributes).toMatchObject({
      title: 'Signed in with warnings',
      body: 'Someone was let on site despite the gate’s checks.',
      link: null,
    });
    const [full] = await inboxAbout(inviter, event.id);
    expect(full?.attributes.body).toContain('with the gate’s checks overridden');
    expect(full?.attributes.link).toBe(`/v3/site-attendances/${event.subject.id}`);
  });
});

describe('redelivery', () => {
  it('an event handed over again makes nothing twice: the same envelopes, the same counts', async () => {
    const event = await overriddenSignIn();
    const counts = async () =>
      (await api.request('GET', '/v3/notifications/counts', { headers: await asUser(gatekeeper) })).body;
    const before = await counts();
    const envelopes = await inboxAbout(gatekeeper, event.id);
    const mails = (await mailed(1, 'Signed in with warnings')).length;
    await consume(streamRecordOf(event));
    await consume(streamRecordOf(event));
    expect(await inboxAbout(gatekeeper, event.id)).toEqual(envelopes);
    expect(await counts()).toEqual(before);
    // Nor mailed twice: the envelope's e-mail delivery is the claim.
    expect(await mailed(1, 'Signed in with warnings')).toHaveLength(mails);
  });
});

describe('one-click unsubscribe (RFC 8058)', () => {
  /** A notice about people sent to people[i]: its mail names its one-click unsubscribe. */
  const unsubscribeLink = async (i: number) => {
    const title = `Rota change ${Date.now().toString(36)}`;
    const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/notices`, {
      headers: await asUser(inviter),
      body: {
        data: {
          type: 'notices',
          attributes: {
            title,
            body: 'The rota changed.',
            severity: 'info',
            category: 'people',
            recipients: { users: [id(i)] },
          },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    await deliverEvents(tenant.org.id);
    const [mail] = await mailed(i, title);
    expect(mail, 'the mail to the notice’s addressee').toBeDefined();
    expect(headerOf(mail as Mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const link = /^<(https?:\/\/[^>]+)>$/.exec(headerOf(mail as Mail, 'List-Unsubscribe') ?? '')?.[1] ?? '';
    expect(link).toContain('/v3/notification-unsubscribe/');
    return new URL(link).pathname;
  };
  const oneClick = (path: string) =>
    api.request('POST', path, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });

  it('a GET shows what the link stops and changes nothing; the POST, without a session, turns that category’s e-mail off', async () => {
    const path = await unsubscribeLink(2);
    const shown = await api.request('GET', path);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toEqual({ category: 'people', organisation: tenant.org.id, email: true });
    expect((await api.request('GET', path)).body.email).toBe(true);
    const res = await oneClick(path);
    expect(res.status, res.text).toBe(204);
    const preferences = await api.request('GET', `/v3/notification-preferences/${tenant.org.id}`, {
      headers: await asUser(holder),
    });
    expect(preferences.body.data.attributes.channels.people).toEqual({ inbox: true, email: false });
    expect(preferences.body.data.attributes.channels.safety).toEqual({ inbox: true, email: true });
    expect((await api.request('GET', path)).body.email).toBe(false);
  });

  it('a tampered or made-up token is 404 and changes nothing', async () => {
    const path = await unsubscribeLink(3);
    const token = path.split('/').at(-1) ?? '';
    // Another category under the same seal, another user, a changed seal: none was sealed.
    const [user, org, , seal] = token.split('.');
    for (const forged of [
      `${user}.${org}.reviews.${seal}`,
      `${inviter}.${org}.people.${seal}`,
      `${user}.${org}.people.${seal?.slice(0, -2)}AA`,
      'not-a-token',
    ]) {
      const res = await oneClick(`/v3/notification-unsubscribe/${forged}`);
      expect(res.status, `${forged}: ${res.text}`).toBe(404);
      expect((await api.request('GET', `/v3/notification-unsubscribe/${forged}`)).status).toBe(404);
    }
    for (const user of [inviter, addressee]) {
      const preferences = await api.request('GET', `/v3/notification-preferences/${tenant.org.id}`, {
        headers: await asUser(user),
      });
      expect(preferences.body.data.attributes.channels.people).toEqual({ inbox: true, email: true });
      expect(preferences.body.data.attributes.channels.reviews).toEqual({ inbox: true, email: true });
    }
  });
});
