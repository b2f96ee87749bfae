/**
 * An organisation's settings (issue 21, "Settings"): typed, with defaults, changed one key at a time;
 * an unknown key is 400; every change is an event and an audit entry with the old and the new value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents, latestEvent } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;
let viewer: string;
let outsider: string;

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Settings Org', 0), newTenant('Settings Other', 0)]);
  [admin, viewer, outsider] = await Promise.all([
    api.token(tenant.admin),
    api.token(tenant.viewer),
    api.token(other.admin),
  ]);
  settingsId = (await api.get(path(), admin)).body.data.id;
});
afterAll(() => api.close());

const path = (orgId = tenant.org.id) => `/v3/orgs/${orgId}/settings`;
/** The settings' own id (a record like any other; the path names the organisation). */
let settingsId: string;
const change = (attributes: object, token = admin, id = settingsId) =>
  api.request('PATCH', path(), { token, body: { data: { type: 'settings', id, attributes } } });

describe('GET /v3/orgs/{org_id}/settings (settings:view)', () => {
  it('a new organisation has every setting at its default', async () => {
    const res = await api.get(path(), viewer);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'settings',
      id: settingsId,
      attributes: {
        timezone: 'Europe/London',
        locale: 'en-GB',
        week_start: 'monday',
        session_lifetime_minutes: 480,
        default_page_size: 25,
        sso_enforced: false,
      },
      links: { self: `${api.url}${path()}` },
    });
  });

  it('another organisation’s settings are 404, read or changed', async () => {
    expect((await api.get(path(), outsider)).status).toBe(404);
    expect((await change({ locale: 'fr-FR' }, outsider)).status).toBe(404);
  });
});

describe('PATCH /v3/orgs/{org_id}/settings (settings:manage)', () => {
  it('changes the keys sent and keeps the others; a viewer may not', async () => {
    expect((await change({ week_start: 'sunday' }, viewer)).status).toBe(403);
    const res = await change({
      week_start: 'sunday',
      timezone: 'europe/dublin',
      session_lifetime_minutes: 60,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes).toEqual({
      timezone: 'Europe/Dublin',
      locale: 'en-GB',
      week_start: 'sunday',
      session_lifetime_minutes: 60,
      default_page_size: 25,
      sso_enforced: false,
    });
    expect((await api.get(path(), viewer)).body.data.attributes).toEqual(res.body.data.attributes);
  });

  it.each([
    ['an unknown key', { theme: 'dark' }, '/data/attributes/theme'],
    ['a page size beyond the API’s bound', { default_page_size: 101 }, '/data/attributes/default_page_size'],
    [
      'a session shorter than 15 minutes',
      { session_lifetime_minutes: 5 },
      '/data/attributes/session_lifetime_minutes',
    ],
    ['a week starting on no day', { week_start: 'someday' }, '/data/attributes/week_start'],
    ['a time zone that is an offset', { timezone: 'GMT+01:00' }, '/data/attributes/timezone'],
    ['a locale that is no language tag', { locale: 'english' }, '/data/attributes/locale'],
    ['SSO enforcement as text', { sso_enforced: 'yes' }, '/data/attributes/sso_enforced'],
  ])('%s is 400 with a pointer, and nothing changes', async (_, attributes, pointer) => {
    const before = (await api.get(path(), admin)).body.data;
    const res = await change(attributes);
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe(pointer);
    expect((await api.get(path(), admin)).body.data).toEqual(before);
  });

  it('the id is the settings’ own: another (the organisation’s, another organisation’s settings’) is 400', async () => {
    const res = await change({ locale: 'cy-GB' }, admin, tenant.org.id);
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/data/id');
  });

  it('a change is a settings.updated event and an audit entry with the old and the new value', async () => {
    expect((await change({ locale: 'cy-GB' })).status).toBe(200);
    const event = await latestEvent(tenant.org.id, 'settings.updated', settingsId);
    expect(event.data).toMatchObject({ type: 'settings', attributes: { locale: 'cy-GB' } });
    await deliverEvents(tenant.org.id);
    const audit = await api.get(
      `/v3/orgs/${tenant.org.id}/audit-events?filter[subject_id]=${settingsId}`,
      admin,
    );
    expect(audit.status, audit.text).toBe(200);
    const latest = audit.body.data.find(
      (e: { attributes: { action: string } }) => e.attributes.action === 'settings.updated',
    );
    expect(latest.attributes).toMatchObject({
      before: { attributes: { locale: 'en-GB' } },
      after: { attributes: { locale: 'cy-GB' } },
    });
  });
});

describe('default_page_size: the organisation’s collections page by it when a request names no size', () => {
  it('a list without page[limit] answers the organisation’s size; one naming its size keeps it; another organisation keeps 25', async () => {
    for (const name of ['A', 'B', 'C', 'D'])
      expect(
        (
          await api.request('POST', `/v3/orgs/${tenant.org.id}/people/job-roles`, {
            token: admin,
            body: { data: { type: 'job-roles', attributes: { name: `Role ${name}`, code: `PS-${name}` } } },
          })
        ).status,
      ).toBe(201);
    expect((await change({ default_page_size: 3 })).status).toBe(200);
    const list = await api.get(`/v3/orgs/${tenant.org.id}/people/job-roles`, admin);
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toHaveLength(3);
    expect(list.body.meta.pagination).toMatchObject({
      requested: { limit: 3, offset: 0 },
      counts: { pages: 2 },
    });
    const named = await api.get(`/v3/orgs/${tenant.org.id}/people/job-roles?page[limit]=4`, admin);
    expect(named.body.data).toHaveLength(4);
    const elsewhere = await api.get(`/v3/orgs/${other.org.id}/people/job-roles`, outsider);
    expect(elsewhere.body.meta.pagination.requested.limit).toBe(25);
    expect((await change({ default_page_size: 25 })).status).toBe(200);
  });
});
