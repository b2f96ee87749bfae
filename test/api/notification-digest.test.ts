/**
 * Issue 43, e-mail digests: an envelope whose category's e-mail is `hourly` or `daily` waits for its
 * digest window, and the window's due work (`notification-digest`, the runner's clock moved, nothing
 * sleeps) sends ONE e-mail listing every envelope of the window, once. Events are notices sent by the
 * organisation's service account (category `people`, which may be digested) and delivered by the consumer
 * as the stream would (`deliverEvents`); the 500-event digest is seeded through the consumer's own write
 * path (`writeEnvelopes`), not 500 API calls.
 */
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDue } from '#functions/due-work/run';
import { digestWindowKey } from '#functions/notifications/digest-lines';
import { envelopeId, writeEnvelopes } from '#functions/notifications/envelopes';
import { envelopeKey, type StoredEnvelope } from '#functions/notifications/inbox-state';
import { startSession } from '#shared/auth/sessions';
import { uuidv7 } from '#shared/data/ids';
import { readConsistently } from '#shared/data/inbox';
import { claimWindow, queryByPrefix } from '#shared/data/inbox-digests';
import { getItem } from '#shared/data/repository';
import { grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { consume, deliverEvents, latestEvent, streamRecordOf } from '../support/event-stream';
import { headerOf, type Mail, mailsTo } from '../support/mailbox';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;

const HOUR = 3_600_000;
const MINUTE = 60_000;
const id = (i: number) => tenant.people[i]?.id ?? '';
const emailOf = (i: number) => String(tenant.people[i]?.attributes.email ?? '');
const digestsTo = async (i: number): Promise<Mail[]> =>
  (await mailsTo(emailOf(i))).filter((mail) => mail.subject.startsWith('Your digest'));
const asUser = async (i: number) => ({ 'x-session-token': (await startSession(id(i))).token });
/** The next whole hour (UTC) after `at`: an hourly window's end. */
const nextHour = (at: number) => Math.floor(at / HOUR) * HOUR + HOUR;

const prefer = async (i: number, attributes: object) => {
  const res = await api.request('PATCH', `/v3/notification-preferences/${tenant.org.id}`, {
    headers: await asUser(i),
    body: { data: { type: 'notification-preferences', id: tenant.org.id, attributes } },
  });
  expect(res.status, res.text).toBe(200);
};

/** A notice to people[i], delivered unless told not to (`deliver`): answers its title. */
const notify = async (i: number, title: string, category = 'people', deliver = true) => {
  const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/notices`, {
    token: admin,
    body: {
      data: {
        type: 'notices',
        attributes: {
          title,
          body: `${title}, in full.`,
          severity: 'info',
          category,
          recipients: { users: [id(i)] },
        },
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  if (deliver) await deliverEvents(tenant.org.id);
  return title;
};

interface Listed {
  id: string;
  attributes: { title: string; deliveries: { email: Record<string, unknown> } };
}
/** people[i]'s envelopes with these titles. */
const envelopesOf = async (i: number, titles: readonly string[]): Promise<Listed[]> => {
  const res = await api.request('GET', '/v3/notifications?page[limit]=100', { headers: await asUser(i) });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Listed[]).filter((envelope) => titles.includes(envelope.attributes.title));
};

const run = (at: number) => runDue(at, { orgId: tenant.org.id });

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Digest Org', 10);
  admin = await api.token(tenant.admin);
  // Preferences are kept in an organisation the user holds grants in.
  await Promise.all(tenant.people.map((person) => grantRole(tenant.org.id, 'viewer', 'user', person.id)));
  await deliverEvents(tenant.org.id);
});
afterAll(() => api.close());

describe('hourly', () => {
  it('three events in one window are one mail listing three, sent at the window’s end and not before', async () => {
    await prefer(0, { email_digest: { people: 'hourly' } });
    // Sent, then delivered together: their envelopes are written within one consumer run, a moment long,
    // so they share a window unless that moment straddles a whole hour.
    const titles = [
      await notify(0, 'Rota one', 'people', false),
      await notify(0, 'Rota two', 'people', false),
      await notify(0, 'Rota three', 'people', false),
    ];
    const before = Date.now();
    await deliverEvents(tenant.org.id);
    const envelopes = await envelopesOf(0, titles);
    expect(envelopes).toHaveLength(3);
    const window = String(envelopes[0]?.attributes.deliveries.email.digest);
    expect(Date.parse(window)).toBe(nextHour(before));
    for (const envelope of envelopes)
      expect(envelope.attributes.deliveries.email).toEqual({ status: 'pending', at: null, digest: window });
    // Nothing at once, nothing before the window ends.
    expect(await mailsTo(emailOf(0))).toEqual([]);
    const early = await run(Date.parse(window) - MINUTE);
    expect(early.byKind['notification-digest']).toBeUndefined();
    expect(await digestsTo(0)).toEqual([]);
    const due = await run(Date.parse(window));
    expect(due.byKind['notification-digest']).toEqual({ ran: 1, failed: 0 });
    const [mail, ...more] = await digestsTo(0);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Your digest: 3 notifications');
    // In arrival order; one category, so its one-click unsubscribe is the mail's.
    const text = mail?.body.text ?? '';
    expect(titles.map((title) => text.indexOf(`- ${title}`))).toEqual(
      [...titles.map((title) => text.indexOf(`- ${title}`))].sort((a, b) => a - b),
    );
    for (const title of titles) expect(text).toContain(`- ${title}`);
    expect(headerOf(mail as Mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(headerOf(mail as Mail, 'List-Unsubscribe')).toContain('/v3/notification-unsubscribe/');
    for (const envelope of await envelopesOf(0, titles))
      expect(envelope.attributes.deliveries.email).toMatchObject({
        status: 'sent',
        message_id: mail?.messageId,
        digest: window,
      });
  });

  it('a redelivered event adds no line; a re-run of the window, or a later run, sends nothing twice', async () => {
    await prefer(1, { email_digest: { people: 'hourly' } });
    const [envelope] = await envelopesOf(1, [await notify(1, 'Shift swap')]);
    const event = await latestEvent(tenant.org.id, 'notice.created');
    await consume(streamRecordOf(event));
    await consume(streamRecordOf(event));
    const window = Date.parse(String(envelope?.attributes.deliveries.email.digest));
    await run(window);
    const [mail, ...more] = await digestsTo(1);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Your digest: 1 notification');
    for (const at of [window, window + MINUTE, window + HOUR]) {
      const again = await run(at);
      expect(again.byKind['notification-digest']).toBeUndefined();
    }
    expect(await digestsTo(1)).toHaveLength(1);
  });

  it('a run that failed after claiming its window never mails it: the re-run settles its envelopes failed', async () => {
    const user = id(2);
    const written = Date.now();
    await writeEnvelopes([
      {
        recipient: user,
        org_id: tenant.org.id,
        event: { id: uuidv7(), name: 'notice.created' },
        subject: { type: 'notices', id: uuidv7() },
        actor: null,
        category: 'people',
        severity: 'info',
        title: 'Claimed then crashed',
        body: 'The run died after its claim.',
        link: null,
        requires_ack: false,
        channels: { email: true, digest: { cadence: 'hourly' } },
      },
    ]);
    const window = new Date(nextHour(written)).toISOString();
    const key = digestWindowKey(user, tenant.org.id, window);
    // The claim a run makes before it mails, left as a run that died there leaves it.
    const claimed = await claimWindow(key, { at: window, through: '~', lines: 1, muted: [] }, 1);
    expect(claimed).toBe(true);
    await run(Date.parse(window));
    expect(await digestsTo(2)).toEqual([]);
    const [envelope] = await envelopesOf(2, ['Claimed then crashed']);
    expect(envelope?.attributes.deliveries.email).toMatchObject({ status: 'failed', reason: 'interrupted' });
    expect(await getItem(key, true)).toBeNull();
  });
});

describe('daily', () => {
  it('goes at the user’s daily time on the organisation’s clock (America/New_York), not UTC’s', async () => {
    const settings = await api.request('GET', `/v3/orgs/${tenant.org.id}/settings`, { token: admin });
    const changed = await api.request('PATCH', `/v3/orgs/${tenant.org.id}/settings`, {
      token: admin,
      body: {
        data: { type: 'settings', id: settings.body.data.id, attributes: { timezone: 'America/New_York' } },
      },
    });
    expect(changed.status, changed.text).toBe(200);
    await prefer(3, { email_digest: { people: 'daily' }, daily_digest_at: '07:30' });
    const now = Temporal.Now.zonedDateTimeISO('America/New_York');
    const today = now.with({ hour: 7, minute: 30, second: 0, millisecond: 0, microsecond: 0, nanosecond: 0 });
    const expected = Temporal.ZonedDateTime.compare(today, now) > 0 ? today : today.add({ days: 1 });
    const [envelope] = await envelopesOf(3, [await notify(3, 'Daily news')]);
    const window = Date.parse(String(envelope?.attributes.deliveries.email.digest));
    expect(window).toBe(expected.epochMilliseconds);
    await run(window - MINUTE);
    expect(await digestsTo(3)).toEqual([]);
    await run(window);
    const [mail, ...more] = await digestsTo(3);
    expect(more).toEqual([]);
    expect(mail?.body.text).toContain('- Daily news');
  });
});

describe('a digest of 500 events', () => {
  it('is one e-mail: 50 titles in full, then how many more, with the inbox; every envelope sent', async () => {
    const user = id(4);
    const written = Date.now();
    const events = Array.from({ length: 500 }, () => uuidv7());
    const { written: made } = await writeEnvelopes(
      events.map((event, n) => ({
        recipient: user,
        org_id: tenant.org.id,
        event: { id: event, name: 'notice.created' },
        subject: { type: 'notices', id: uuidv7() },
        actor: null,
        category: 'people' as const,
        severity: 'info' as const,
        title: `Event ${n}`,
        body: 'Something happened.',
        link: `/v3/notices/${n}`,
        requires_ack: false,
        channels: { email: true, digest: { cadence: 'hourly' as const } },
      })),
      () => written,
    );
    expect(made).toBe(500);
    const due = await run(nextHour(written));
    expect(due.byKind['notification-digest']).toEqual({ ran: 1, failed: 0 });
    const [mail, ...more] = await digestsTo(4);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Your digest: 500 notifications');
    const text = mail?.body.text ?? '';
    expect(text.match(/^- Event \d+$/gm)).toHaveLength(50);
    expect(text).toContain(`And 450 more: `);
    expect(text).toContain(`/v3/notifications?filter[organisation]=${tenant.org.id}`);
    const envelopes = await readConsistently<StoredEnvelope>(
      events.map((event) => envelopeKey(user, envelopeId(event, user))),
    );
    expect(envelopes).toHaveLength(500);
    for (const envelope of envelopes)
      expect(envelope.attributes.deliveries).toMatchObject({
        email: { status: 'sent', message_id: mail?.messageId },
      });
  });
});

describe('what a window sends', () => {
  it('a category switched from the digest back to at once mid-window: the window sends what it gathered, the next e-mail goes at once', async () => {
    await prefer(5, { email_digest: { people: 'hourly' } });
    const [gathered] = await envelopesOf(5, [await notify(5, 'Gathered first')]);
    await prefer(5, { email_digest: { people: 'off' } });
    await notify(5, 'Sent at once');
    expect((await mailsTo(emailOf(5))).map((mail) => mail.subject)).toEqual(['Sent at once']);
    await run(Date.parse(String(gathered?.attributes.deliveries.email.digest)));
    const [mail, ...more] = await digestsTo(5);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Your digest: 1 notification');
    expect(mail?.body.text).toContain('- Gathered first');
    expect(mail?.body.text).not.toContain('Sent at once');
  });

  it('a category unsubscribed from mid-window is left out: no mail, its envelopes suppressed', async () => {
    await prefer(6, { email_digest: { people: 'hourly' } });
    const [envelope] = await envelopesOf(6, [await notify(6, 'Never mailed')]);
    await prefer(6, { channels: { people: { email: false } } });
    await run(Date.parse(String(envelope?.attributes.deliveries.email.digest)));
    expect(await mailsTo(emailOf(6))).toEqual([]);
    const [after] = await envelopesOf(6, ['Never mailed']);
    expect(after?.attributes.deliveries.email).toMatchObject({ status: 'suppressed', reason: 'preferences' });
  });

  it('mixed categories: one link to stop each in the text, and no one-click header (it would stop only one)', async () => {
    await prefer(7, { email_digest: { people: 'hourly', reviews: 'hourly' } });
    await notify(7, 'About people', 'people', false);
    await notify(7, 'About reviews', 'reviews', false);
    await deliverEvents(tenant.org.id);
    const [envelope] = await envelopesOf(7, ['About people']);
    await run(Date.parse(String(envelope?.attributes.deliveries.email.digest)));
    const [mail, ...more] = await digestsTo(7);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Your digest: 2 notifications');
    expect(headerOf(mail as Mail, 'List-Unsubscribe')).toBeUndefined();
    expect(mail?.body.text).toMatch(/Stop e-mails about people: \S+\/v3\/notification-unsubscribe\//);
    expect(mail?.body.text).toMatch(/Stop e-mails about reviews: \S+\/v3\/notification-unsubscribe\//);
  });

  it('is made from its lines, not the inbox: an envelope archived before the window ends is still listed', async () => {
    await prefer(8, { email_digest: { people: 'hourly' } });
    const [envelope] = await envelopesOf(8, [await notify(8, 'Archived early')]);
    const archived = await api.request('PATCH', `/v3/notifications/${envelope?.id}`, {
      headers: await asUser(8),
      body: { data: { type: 'notifications', id: envelope?.id, attributes: { archived: true } } },
    });
    expect(archived.status, archived.text).toBe(200);
    await run(Date.parse(String(envelope?.attributes.deliveries.email.digest)));
    const [mail] = await digestsTo(8);
    expect(mail?.body.text).toContain('- Archived early');
  });

  it('a user no longer active in the organisation is sent nothing, and the window’s lines are dropped', async () => {
    const written = Date.now();
    await writeEnvelopes([
      {
        recipient: id(9),
        org_id: tenant.org.id,
        event: { id: uuidv7(), name: 'notice.created' },
        subject: { type: 'notices', id: uuidv7() },
        actor: null,
        category: 'people',
        severity: 'info',
        title: 'For a suspended user',
        body: 'Nobody reads this.',
        link: null,
        requires_ack: false,
        channels: { email: true, digest: { cadence: 'hourly' } },
      },
    ]);
    const suspended = await api.request('POST', `/v3/users/${id(9)}/suspend`, { token: admin, body: {} });
    expect(suspended.status, suspended.text).toBe(200);
    const window = new Date(nextHour(written)).toISOString();
    const due = await run(Date.parse(window));
    expect(due.byKind['notification-digest']?.failed).toBe(0);
    expect(await mailsTo(emailOf(9))).toEqual([]);
    expect(await getItem(digestWindowKey(id(9), tenant.org.id, window), true)).toBeNull();
    expect(await queryByPrefix(`INBOX#${id(9)}`, 'DIGEST')).toEqual([]);
  });
});
