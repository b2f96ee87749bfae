/**
 * Issue 43, delivery: events become envelopes in the inboxes the rules name, through the API against the
 * local stack, the stream's consumer handed each organisation's new events (`deliverEvents`) as the stream
 * would. An invitation accepted tells its inviter; an award expiring tells its person and the approvers
 * (the runner's clock moved); a sign-in let through by an override tells the site's managers; a notice
 * tells whom it names. A redelivered event makes nothing twice, and a recipient without read permission
 * on the subject gets the rule's generic text and no link.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDue } from '#functions/due-work/run';
import { deliverNotifications } from '#functions/notifications/deliver';
import { envelopeId } from '#functions/notifications/envelopes';
import { envelopeKey, readEnvelope, type StoredEnvelope } from '#functions/notifications/inbox-state';
import { openUnsubscribeToken, unsubscribeToken } from '#functions/notifications/unsubscribe-tokens';
import { startSession } from '#shared/auth/sessions';
import { documents, tableName } from '#shared/data/clients';
import { grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { dynamoCalls } from '../support/dynamo-calls';
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

  /** The gatekeeper's envelope of an event, as stored. */
  const storedEnvelope = async (eventId: string) =>
    (await readEnvelope(gatekeeper, envelopeId(eventId, gatekeeper), true)) as StoredEnvelope & {
      email_claimed_at?: string;
    };
  /** Puts the gatekeeper's envelope back as a crash left it: its e-mail pending, claimed or not. */
  const crashedBefore = async (eventId: string, step: 'the claim' | 'the send') =>
    documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: envelopeKey(gatekeeper, envelopeId(eventId, gatekeeper)),
        UpdateExpression:
          step === 'the claim'
            ? 'SET attributes.deliveries.email = :pending REMOVE email_claimed_at'
            : 'SET attributes.deliveries.email = :pending, email_claimed_at = :at',
        ExpressionAttributeValues: {
          ':pending': { status: 'pending', at: null },
          ...(step === 'the send' && { ':at': new Date().toISOString() }),
        },
      }),
    );

  it('a redelivery tries no mail that was sent: no claim attempted (no UpdateItem), nothing sent', async () => {
    const event = await overriddenSignIn();
    const mails = (await mailed(1, 'Signed in with warnings')).length;
    expect((await storedEnvelope(event.id)).attributes.deliveries).toMatchObject({
      email: { status: 'sent' },
    });
    const { calls } = await dynamoCalls(() => deliverNotifications(event));
    expect(calls.UpdateItemCommand ?? 0).toBe(0);
    expect(await mailed(1, 'Signed in with warnings')).toHaveLength(mails);
  });

  it('a crash between the write and the mail is finished by the redelivery, once; one between the claim and the send is never sent twice', async () => {
    const event = await overriddenSignIn();
    const mails = (await mailed(1, 'Signed in with warnings')).length;
    await crashedBefore(event.id, 'the claim');
    await deliverNotifications(event);
    expect(await mailed(1, 'Signed in with warnings')).toHaveLength(mails + 1);
    expect((await storedEnvelope(event.id)).attributes.deliveries).toMatchObject({
      email: { status: 'sent' },
    });
    await crashedBefore(event.id, 'the send');
    const { calls } = await dynamoCalls(() => deliverNotifications(event));
    // Claimed by the run that crashed: never tried again, so never sent twice.
    expect(calls.UpdateItemCommand ?? 0).toBe(0);
    expect(await mailed(1, 'Signed in with warnings')).toHaveLength(mails + 1);
    expect((await storedEnvelope(event.id)).attributes.deliveries).toMatchObject({
      email: { status: 'pending' },
    });
  });
});

describe('one-click unsubscribe (RFC 8058)', () => {
  /**
   * A notice about people to people[i] (sent by the organisation's service account, which may name any
   * team to escalate to): answers its event and its mails.
   */
  const noticeTo = async (i: number, extra: { attributes?: object; relationships?: object } = {}) => {
    const title = `Rota change ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/notices`, {
      token: admin,
      body: {
        data: {
          type: 'notices',
          attributes: {
            title,
            body: 'The rota changed.',
            severity: 'info',
            category: 'people',
            recipients: { users: [id(i)] },
            ...extra.attributes,
          },
          ...(extra.relationships && { relationships: extra.relationships }),
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    await deliverEvents(tenant.org.id);
    const event = await latestEvent(tenant.org.id, 'notice.created', res.body.data.id);
    return { title, event, mails: await mailed(i, title) };
  };
  /** The one-click link a mail names in its headers, as a path. */
  const unsubscribeLink = async (i: number) => {
    const {
      mails: [mail],
    } = await noticeTo(i);
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
  const channelsOf = async (userId: string) => {
    const preferences = await api.request('GET', `/v3/notification-preferences/${tenant.org.id}`, {
      headers: await asUser(userId),
    });
    expect(preferences.status, preferences.text).toBe(200);
    return preferences.body.data.attributes.channels as Record<string, { inbox: boolean; email: boolean }>;
  };

  it('a mail sent at once is in the SES outbox with List-Unsubscribe and List-Unsubscribe-Post: List-Unsubscribe=One-Click, and the same link in its text', async () => {
    const {
      mails: [mail, ...more],
    } = await noticeTo(3);
    expect(more).toEqual([]);
    const link = /^<(https?:\/\/[^>]+)>$/.exec(headerOf(mail as Mail, 'List-Unsubscribe') ?? '')?.[1];
    expect(link).toMatch(/\/v3\/notification-unsubscribe\/[^/]+$/);
    expect(headerOf(mail as Mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail?.body.text).toContain(link);
  });

  it('an acknowledgement-required mail carries no unsubscribe (it cannot be muted)', async () => {
    const team = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/teams`, {
      token: admin,
      body: { data: { type: 'teams', attributes: { name: `Rota keepers ${Date.now()}` } } },
    });
    expect(team.status, team.text).toBe(201);
    const {
      mails: [mail, ...more],
    } = await noticeTo(3, {
      attributes: { requires_ack: true },
      relationships: { sender_team: { data: { type: 'teams', id: team.body.data.id } } },
    });
    expect(more).toEqual([]);
    expect(mail, 'the mail to the notice’s addressee').toBeDefined();
    expect(headerOf(mail as Mail, 'List-Unsubscribe')).toBeUndefined();
    expect(headerOf(mail as Mail, 'List-Unsubscribe-Post')).toBeUndefined();
    expect(mail?.body.text).not.toContain('notification-unsubscribe');
  });

  it('a GET shows what the link stops and changes nothing; the POST, without a session, turns that category’s e-mail off (204), and its next event is not mailed but still reaches the inbox', async () => {
    const path = await unsubscribeLink(2);
    const shown = await api.request('GET', path);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.data).toMatchObject({
      type: 'notification-unsubscribes',
      attributes: { category: 'people', organisation: tenant.org.id, email: true },
    });
    expect((await api.request('GET', path)).body.data.attributes.email).toBe(true);
    expect((await channelsOf(holder)).people).toEqual({ inbox: true, email: true });
    const res = await oneClick(path);
    expect(res.status, res.text).toBe(204);
    const channels = await channelsOf(holder);
    expect(channels.people).toEqual({ inbox: true, email: false });
    expect(channels.safety).toEqual({ inbox: true, email: true });
    expect((await api.request('GET', path)).body.data.attributes.email).toBe(false);
    // The next people event: in the inbox, its e-mail suppressed, no mail.
    const next = await noticeTo(2);
    expect(next.mails).toEqual([]);
    const [envelope, ...more] = await inboxAbout(holder, next.event.id);
    expect(more).toEqual([]);
    expect(envelope?.attributes.deliveries).toMatchObject({
      inbox: { status: 'sent' },
      email: { status: 'suppressed' },
    });
  });

  /** What a browser sends when a person follows a link or posts a form. */
  const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  /** A person of an organisation whose name is markup, and the link of their mails about people. */
  const markupTenant = async () => {
    const named = await newTenant(`Smith & "Sons" <script>alert('name')</script>`, 1);
    const person = named.people[0]?.id ?? '';
    // Preferences are read in an organisation the reader holds a grant in.
    await grantRole(named.org.id, 'viewer', 'user', person);
    return {
      named,
      person,
      path: `/v3/notification-unsubscribe/${await unsubscribeToken(person, named.org.id, 'people')}`,
    };
  };

  it('a person following the link in a browser is shown a page (no script, no cache) saying what it stops, the organisation’s name escaped, with a form that posts the one-click body to the same URL; the GET changes nothing', async () => {
    const { named, person, path } = await markupTenant();
    const shown = await api.request('GET', path, { headers: { accept: BROWSER } });
    expect(shown.status, shown.text).toBe(200);
    expect(shown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(shown.headers.get('cache-control')).toBe('no-store');
    expect(shown.headers.get('content-security-policy')).toBe(
      "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(shown.text).toContain('<html lang="en">');
    expect(shown.text).toContain('<strong>people</strong>');
    expect(shown.text).toContain(
      'Smith &amp; &quot;Sons&quot; &lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;',
    );
    expect(shown.text).not.toMatch(/<script/i);
    const form =
      /<form method="post" action="([^"]+)">\s*<input type="hidden" name="([^"]+)" value="([^"]+)">\s*<button type="submit">/.exec(
        shown.text,
      );
    expect(form?.slice(1)).toEqual([path, 'List-Unsubscribe', 'One-Click']);
    // An API client asking for JSON:API is still answered the document.
    const document = await api.request('GET', path, {
      headers: { accept: `application/vnd.api+json, ${BROWSER}` },
    });
    expect(document.body.data.attributes).toMatchObject({ category: 'people', email: true });
    expect(
      (
        await api.request('GET', `/v3/notification-preferences/${named.org.id}`, {
          headers: await asUser(person),
        })
      ).body.data.attributes.channels.people,
    ).toEqual({ inbox: true, email: true });
  });

  it('the page’s form, posted as a browser posts it, unsubscribes and answers a confirmation page; the link then shows no button', async () => {
    const { named, person, path } = await markupTenant();
    const shown = await api.request('GET', path, { headers: { accept: BROWSER } });
    const [, action = '', field = '', value = ''] =
      /<form method="post" action="([^"]+)">\s*<input type="hidden" name="([^"]+)" value="([^"]+)">/.exec(
        shown.text,
      ) ?? [];
    const posted = await api.request('POST', action.replaceAll('&amp;', '&'), {
      headers: { accept: BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ [field]: value }).toString(),
    });
    expect(posted.status, posted.text).toBe(200);
    expect(posted.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(posted.text).toContain('You will no longer receive e-mails about <strong>people</strong>');
    expect(posted.text).not.toMatch(/<script|<form/i);
    const channels = (
      await api.request('GET', `/v3/notification-preferences/${named.org.id}`, {
        headers: await asUser(person),
      })
    ).body.data.attributes.channels;
    expect(channels.people).toEqual({ inbox: true, email: false });
    const again = await api.request('GET', path, { headers: { accept: BROWSER } });
    expect(again.text).toContain('You no longer receive');
    expect(again.text).not.toContain('<form');
  });

  it('a token changed in one character, made up, or sealed by another deployment is 404 and changes nothing', async () => {
    const path = await unsubscribeLink(3);
    const token = path.split('/').at(-1) ?? '';
    const [user = '', org = '', , seal = ''] = token.split('.');
    const swap = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
    // What the seal would be under another deployment's cursor key: well formed, not this one's.
    const foreignKey = createHmac('sha256', randomBytes(32)).update('notification-unsubscribe').digest();
    const foreign = createHmac('sha256', foreignKey).update(`${user}\n${org}\npeople`).digest('base64url');
    for (const forged of [
      // Another category or user under the same seal.
      `${user}.${org}.reviews.${seal}`,
      `${inviter}.${org}.people.${seal}`,
      // One character changed: in the user, the middle of the seal, its last character (whose spare bits
      // base64url decoding ignores), or one more character the decoder would skip.
      `${swap(user, 0)}.${org}.people.${seal}`,
      `${user}.${org}.people.${swap(seal, 20)}`,
      ...['A', 'B', 'C', 'D'].map((last) => `${user}.${org}.people.${seal.slice(0, -1)}${last}`),
      `${user}.${org}.people.${seal.slice(0, 10)}*${seal.slice(10)}`,
      `${user}.${org}.people.${foreign}`,
      'not-a-token',
    ].filter((forged) => forged !== token)) {
      const res = await oneClick(`/v3/notification-unsubscribe/${encodeURIComponent(forged)}`);
      expect(res.status, `${forged}: ${res.text}`).toBe(404);
      expect(
        (await api.request('GET', `/v3/notification-unsubscribe/${encodeURIComponent(forged)}`)).status,
      ).toBe(404);
    }
    for (const user of [inviter, addressee]) {
      const channels = await channelsOf(user);
      expect(channels.people).toEqual({ inbox: true, email: true });
      expect(channels.reviews).toEqual({ inbox: true, email: true });
    }
    // Every one-character change of the token's seal opens nothing.
    for (let at = 0; at < seal.length; at++)
      expect(await openUnsubscribeToken(`${user}.${org}.people.${swap(seal, at)}`), String(at)).toBeNull();
  });
});

describe('a category whose inbox is off and e-mail on is mailed, from an envelope kept out of the inbox', () => {
  /** people[4], with sharing's inbox off and e-mail on, and safety as it must be. */
  let reader: string;
  beforeAll(async () => {
    reader = id(4);
    await grantRole(tenant.org.id, 'viewer', 'user', reader);
    const res = await api.request('PATCH', `/v3/notification-preferences/${tenant.org.id}`, {
      headers: await asUser(reader),
      body: {
        data: {
          type: 'notification-preferences',
          id: tenant.org.id,
          attributes: {
            channels: { sharing: { inbox: false, email: true }, reports: { inbox: false, email: false } },
          },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
  });
  const notice = async (category: string) => {
    const title = `Shared ${category} ${Date.now().toString(36)}`;
    const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/notices`, {
      headers: await asUser(inviter),
      body: {
        data: {
          type: 'notices',
          attributes: {
            title,
            body: 'A folder was shared.',
            severity: 'info',
            category,
            recipients: { users: [reader] },
          },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    await deliverEvents(tenant.org.id);
    const event = await latestEvent(tenant.org.id, 'notice.created', res.body.data.id);
    return { title, event, envelopeId: envelopeId(event.id, reader) };
  };
  const counts = async () =>
    (await api.request('GET', '/v3/notifications/counts', { headers: await asUser(reader) })).body.data
      .attributes;

  it('mailed once (a redelivered event sends no second mail), not listed, not counted, 404 at GET and PATCH, not marked by id, its inbox delivery suppressed', async () => {
    const before = await counts();
    const { title, event, envelopeId: unlisted } = await notice('sharing');
    const mails = (await mailsTo(emailOf(4))).filter((mail) => mail.subject === title);
    expect(mails).toHaveLength(1);
    expect(headerOf(mails[0] as Mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    await consume(streamRecordOf(event));
    expect((await mailsTo(emailOf(4))).filter((mail) => mail.subject === title)).toHaveLength(1);
    // Not in the inbox: not listed (archived ones either), not counted.
    expect(await inboxAbout(reader, event.id)).toEqual([]);
    const archived = await api.request('GET', '/v3/notifications?filter[state]=archived&page[limit]=100', {
      headers: await asUser(reader),
    });
    expect(archived.body.data.map((e: Listed) => e.id)).not.toContain(unlisted);
    expect(await counts()).toEqual(before);
    // Not its recipient's to read, change, acknowledge or mark.
    const headers = await asUser(reader);
    expect((await api.request('GET', `/v3/notifications/${unlisted}`, { headers })).status).toBe(404);
    const patched = await api.request('PATCH', `/v3/notifications/${unlisted}`, {
      headers,
      body: { data: { type: 'notifications', id: unlisted, attributes: { state: 'read', saved: true } } },
    });
    expect(patched.status, patched.text).toBe(404);
    for (const attributes of [
      { action: 'read', ids: [unlisted] },
      { action: 'read', through: unlisted },
    ]) {
      const marked = await api.request('POST', '/v3/notifications/mark', {
        headers,
        body: { data: { type: 'notification-marks', attributes } },
      });
      expect(marked.status, marked.text).toBe(400);
    }
    expect(await counts()).toEqual(before);
    // The stored envelope is the mail's record: sent, its inbox suppressed, expiring as any other.
    const stored = await readEnvelope(reader, unlisted, true);
    expect(stored?.lsi1).toBeUndefined();
    expect(stored?.expires_at).toEqual(expect.any(Number));
    expect(stored?.attributes.deliveries).toMatchObject({
      inbox: { status: 'suppressed' },
      email: { status: 'sent', message_id: mails[0]?.messageId },
    });
  });

  it('both channels off: nothing is written and nothing mailed', async () => {
    const { title, envelopeId: none } = await notice('reports');
    expect(await readEnvelope(reader, none, true)).toBeNull();
    expect((await mailsTo(emailOf(4))).filter((mail) => mail.subject === title)).toEqual([]);
  });
});
