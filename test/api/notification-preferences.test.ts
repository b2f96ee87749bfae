/**
 * Issue 43, "Preferences": `GET/PATCH /v3/notification-preferences/{org_id}` are the caller's own
 * (category × channel on/off, an e-mail digest per category, the daily time); absent = the defaults;
 * safety cannot be muted (422 with the reason and a pointer, nothing written); an unknown category is
 * 400; a service account has no preferences (403); another organisation is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPreferences, unsubscribe } from '#functions/notifications/preferences';
import { channelsFor } from '#functions/notifications/rules/preferences';
import { startSession } from '#shared/auth/sessions';
import { grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Preferences Org', 2), newTenant('Preferences Other', 1)]);
  await Promise.all([
    ...tenant.people.map((person) => grantRole(tenant.org.id, 'viewer', 'user', person.id)),
    grantRole(other.org.id, 'viewer', 'user', other.people[0]?.id ?? ''),
  ]);
});
afterAll(() => api.close());

const userId = (t: Tenant, i: number) => t.people[i]?.id ?? '';
const path = (orgId = tenant.org.id) => `/v3/notification-preferences/${orgId}`;
const asUser = async (id: string) => ({ 'x-session-token': (await startSession(id)).token });
const read = async (id: string, orgId = tenant.org.id) =>
  api.request('GET', path(orgId), { headers: await asUser(id) });
const change = async (id: string, attributes: object, orgId = tenant.org.id) =>
  api.request('PATCH', path(orgId), {
    headers: await asUser(id),
    body: { data: { type: 'notification-preferences', id: orgId, attributes } },
  });

describe('GET /v3/notification-preferences/{org_id}', () => {
  it('absent preferences are the defaults: every category in the inbox and by e-mail at once, daily at 08:00', async () => {
    const res = await read(userId(tenant, 0));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'notification-preferences', id: tenant.org.id });
    const { channels, email_digest, daily_digest_at } = res.body.data.attributes;
    expect(Object.keys(channels)).toContain('safety');
    for (const category of Object.keys(channels)) {
      expect(channels[category]).toEqual({ inbox: true, email: true });
      expect(email_digest[category]).toBe('off');
    }
    expect(daily_digest_at).toBe('08:00');
  });

  it('an organisation the caller holds no grants in is 404, read or changed', async () => {
    expect((await read(userId(other, 0))).status).toBe(404);
    expect((await change(userId(other, 0), { daily_digest_at: '09:00' })).status).toBe(404);
  });

  it('a service account has no preferences: 403 with a detail saying so', async () => {
    const token = await api.token(tenant.admin);
    const res = await api.get(path(), token);
    expect(res.status, res.text).toBe(403);
    expect(res.body.errors[0].detail).toMatch(
      /service accounts have no inbox and no notification preferences/i,
    );
    const patched = await api.request('PATCH', path(), {
      token,
      body: { data: { type: 'notification-preferences', id: tenant.org.id, attributes: {} } },
    });
    expect(patched.status).toBe(403);
  });
});

describe('PATCH /v3/notification-preferences/{org_id}', () => {
  it("changes the caller's own preferences only, keeping what the change leaves out", async () => {
    const res = await change(userId(tenant, 0), {
      channels: { people: { email: false } },
      email_digest: { reviews: 'daily', actions: 'hourly' },
      daily_digest_at: '17:30',
    });
    expect(res.status, res.text).toBe(200);
    const { attributes } = (await read(userId(tenant, 0))).body.data;
    expect(attributes.channels.people).toEqual({ inbox: true, email: false });
    expect(attributes.email_digest).toMatchObject({ reviews: 'daily', actions: 'hourly', people: 'off' });
    expect(attributes.daily_digest_at).toBe('17:30');
    // The other user of the same organisation keeps the defaults: preferences are personal.
    expect((await read(userId(tenant, 1))).body.data.attributes.channels.people).toEqual({
      inbox: true,
      email: true,
    });
  });

  it('safety cannot be muted: 422 with the reason and a pointer per refusal, nothing written', async () => {
    const before = (await read(userId(tenant, 1))).body.data.attributes;
    const res = await change(userId(tenant, 1), {
      channels: { safety: { inbox: false, email: false }, people: { inbox: false } },
      email_digest: { safety: 'daily' },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
      '/data/attributes/channels/safety/inbox',
      '/data/attributes/channels/safety/email',
      '/data/attributes/email_digest/safety',
    ]);
    expect(res.body.errors[0].detail).toMatch(/safety notifications cannot be switched off/);
    expect((await read(userId(tenant, 1))).body.data.attributes).toEqual(before);
  });

  it('an unknown category, digest, time or member is 400 with its pointer, nothing written', async () => {
    const before = (await read(userId(tenant, 1))).body.data.attributes;
    for (const [attributes, at] of [
      [{ channels: { gossip: { inbox: false } } }, '/data/attributes/channels/gossip'],
      [{ channels: { people: { sms: true } } }, '/data/attributes/channels/people/sms'],
      [{ email_digest: { people: 'weekly' } }, '/data/attributes/email_digest/people'],
      [{ daily_digest_at: '25:00' }, '/data/attributes/daily_digest_at'],
      [{ timezone: 'Europe/Paris' }, '/data/attributes/timezone'],
    ] as const) {
      const res = await change(userId(tenant, 1), attributes);
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors[0].source.pointer).toBe(at);
    }
    expect((await read(userId(tenant, 1))).body.data.attributes).toEqual(before);
  });

  it('data.id must name the organisation of the path', async () => {
    const res = await api.request('PATCH', path(), {
      headers: await asUser(userId(tenant, 1)),
      body: { data: { type: 'notification-preferences', id: other.org.id, attributes: {} } },
    });
    expect(res.status).toBe(400);
  });
});

describe('what the consumer reads (channelsFor) and the unsubscribe write', () => {
  it('channelsFor follows preferences, but safety and acknowledgement-required ones go everywhere at once', async () => {
    const { preferences } = await readPreferences(userId(tenant, 0), tenant.org.id);
    expect(channelsFor(preferences, 'people', false)).toEqual({ inbox: true, email: false });
    expect(channelsFor(preferences, 'reviews', false)).toEqual({ inbox: true, email: 'daily' });
    expect(channelsFor(preferences, 'system', false)).toEqual({ inbox: true, email: 'now' });
    expect(channelsFor(preferences, 'people', true)).toEqual({ inbox: true, email: 'now' });
    const muted = {
      ...preferences,
      channels: { ...preferences.channels, safety: { inbox: false, email: false } },
    };
    expect(channelsFor(muted, 'safety', false)).toEqual({ inbox: true, email: 'now' });
  });

  it('one-click unsubscribe turns e-mail off for one category only; safety is refused', async () => {
    expect(await unsubscribe(userId(tenant, 1), tenant.org.id, 'reports')).toBe(true);
    expect(await unsubscribe(userId(tenant, 1), tenant.org.id, 'safety')).toBe(false);
    const { attributes } = (await read(userId(tenant, 1))).body.data;
    expect(attributes.channels.reports).toEqual({ inbox: true, email: false });
    expect(attributes.channels.safety).toEqual({ inbox: true, email: true });
    expect(attributes.channels.actions).toEqual({ inbox: true, email: true });
  });
});
