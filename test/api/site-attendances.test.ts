/**
 * Site attendances (issue 22): signing in at a site's gate with induction and qualification checks, a
 * manager's override, one open attendance per person per site, who is on site now (a sparse index),
 * sign-out, corrections that keep what they replace, the automatic sign-out at the site's closing time
 * (the schedule's clock moved by the test), a day's register, and the roll call as a CSV export.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDue } from '#functions/due-work/run';
import { nextClosing } from '#functions/site-attendances/rules/site-day';
import { startSession } from '#shared/auth/sessions';
import { createUser, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { latestEvent } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;
let viewer: string;
let outsider: string;
let people: string[];
let depot: string;
let yard: string;
let induction: string;
let cscs: string;

const attendances = (orgId = tenant.org.id) => `/v3/orgs/${orgId}/site-attendances`;
const post = (path: string, body: object, token = admin) => api.request('POST', path, { token, body });
const at = (site: string) => ({ location: { data: { type: 'locations', id: site } } });
const signIn = (person: string | null, site: string, attributes: object = {}, token = admin) =>
  post(
    attendances(),
    {
      data: {
        type: 'site-attendances',
        attributes: { method_in: 'kiosk', ...attributes },
        relationships: { ...at(site), ...(person && { person: { data: { type: 'users', id: person } } }) },
      },
    },
    token,
  );
const onSite = async (site: string) => {
  const res = await api.get(
    `${attendances()}?filter[on_site]=true&filter[location]=${site}&page[limit]=100`,
    viewer,
  );
  expect(res.status, res.text).toBe(200);
  return res.body.data.map(
    (a: { relationships: { person: { data: { id: string } | null } } }) => a.relationships.person.data?.id,
  );
};
const award = async (person: string, type: string) => {
  const res = await post(`/v3/orgs/${tenant.org.id}/qualifications/awards`, {
    data: {
      type: 'qualification-awards',
      attributes: { issued_at: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) },
      relationships: {
        person: { data: { type: 'users', id: person } },
        qualification_type: { data: { type: 'qualification-types', id: type } },
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  const approved = await post(`/v3/qualification-awards/${res.body.data.id}/approve`, {});
  expect(approved.status, approved.text).toBe(200);
};

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([
    newTenant('Site Attendance Org', 8),
    newTenant('Site Attendance Other', 1),
  ]);
  [admin, viewer, outsider] = await Promise.all([
    api.token(tenant.admin),
    api.token(tenant.viewer),
    api.token(other.admin),
  ]);
  people = tenant.people.map((p) => p.id);
  const location = async (name: string) =>
    (
      await post(`/v3/orgs/${tenant.org.id}/governance/locations`, {
        data: { type: 'locations', attributes: { name } },
      })
    ).body.data.id as string;
  [depot, yard] = await Promise.all([location('North depot'), location('South yard')]);
  const type = async (attributes: object, relationships?: object) =>
    (
      await post(`/v3/orgs/${tenant.org.id}/qualifications/types`, {
        data: { type: 'qualification-types', attributes, relationships },
      })
    ).body.data.id as string;
  induction = await type(
    { kind: 'induction', name: 'North depot induction', has_expiry: true, validity_period: 'P1Y' },
    { locations: { data: [{ type: 'locations', id: depot }] } },
  );
  cscs = await type({ kind: 'registration', name: 'CSCS', has_expiry: true, validity_period: 'P5Y' });
  const specification = await post(`/v3/orgs/${tenant.org.id}/qualifications/specifications`, {
    data: {
      type: 'qualification-specifications',
      attributes: { name: 'Card holder', rule: { qualification_type: cscs } },
    },
  });
  const settings = await post(`/v3/orgs/${tenant.org.id}/site-settings`, {
    data: {
      type: 'site-settings',
      attributes: { closing_time: '18:00', missing_qualification: 'warn' },
      relationships: {
        ...at(depot),
        required_specification: {
          data: { type: 'qualification-specifications', id: specification.body.data.id },
        },
      },
    },
  });
  expect(settings.status, settings.text).toBe(201);
  // people[1..6] hold the depot's induction; people[0] does not.
  for (const person of people.slice(1, 7)) await award(person, induction);
  await award(people[2] ?? '', cscs);
});
afterAll(() => api.close());

describe('signing in at the gate', () => {
  it('a worker without the site’s induction is refused (409 naming it), and nothing is written', async () => {
    const res = await signIn(people[0] ?? '', depot);
    expect(res.status, res.text).toBe(409);
    expect(res.body.errors[0].detail).toContain(induction);
    expect(await onSite(depot)).not.toContain(people[0]);
  });

  it('a manager overrides with a reason: signed in, the override and the failed checks kept', async () => {
    const res = await signIn(people[0] ?? '', depot, {
      override: { reason: 'Inducted verbally by the site manager; paperwork follows.' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes.checks.outcome).toBe('overridden');
    expect(res.body.data.attributes.override).toMatchObject({ reason: expect.stringContaining('verbally') });
    expect(await onSite(depot)).toContain(people[0]);
  });

  it('with the induction: signed in at server time; a missing qualification the site requires is recorded as a warning', async () => {
    const before = new Date().toISOString();
    const res = await signIn(people[1] ?? '', depot, { signed_in_at: '2020-01-01T00:00:00Z' });
    expect(res.status).toBe(400);
    const ok = await signIn(people[1] ?? '', depot);
    expect(ok.status, ok.text).toBe(201);
    const { attributes, relationships, meta } = ok.body.data;
    expect(attributes.signed_in_at >= before).toBe(true);
    expect(attributes).toMatchObject({ signed_out_at: null, method_in: 'kiosk', attendee_kind: 'worker' });
    expect(attributes.checks).toMatchObject({ outcome: 'warned', specification: { met: false } });
    expect(meta.on_site).toBe(true);
    expect(relationships.signed_in_by_service_account.data.id).toBeTruthy();
    const full = await signIn(people[2] ?? '', depot);
    expect(full.body.data.attributes.checks).toMatchObject({
      outcome: 'passed',
      specification: { met: true },
    });
  });

  it('when the site refuses on missing qualifications, a sign-in without them is 409', async () => {
    const [settings] = (
      await api.get(`/v3/orgs/${tenant.org.id}/site-settings?filter[location]=${depot}`, viewer)
    ).body.data;
    const patch = await api.request('PATCH', `/v3/site-settings/${settings.id}`, {
      token: admin,
      body: {
        data: { type: 'site-settings', id: settings.id, attributes: { missing_qualification: 'refuse' } },
      },
    });
    expect(patch.status, patch.text).toBe(200);
    const refused = await signIn(people[3] ?? '', depot);
    expect(refused.status, refused.text).toBe(409);
    await api.request('PATCH', `/v3/site-settings/${settings.id}`, {
      token: admin,
      body: {
        data: { type: 'site-settings', id: settings.id, attributes: { missing_qualification: 'warn' } },
      },
    });
  });

  it('a site has one settings record (409 on a second); it names a scheme or a location', async () => {
    const again = await post(`/v3/orgs/${tenant.org.id}/site-settings`, {
      data: { type: 'site-settings', attributes: { closing_time: '17:00' }, relationships: at(depot) },
    });
    expect(again.status, again.text).toBe(409);
    const none = await post(`/v3/orgs/${tenant.org.id}/site-settings`, {
      data: { type: 'site-settings', attributes: { closing_time: '17:00' } },
    });
    expect(none.status).toBe(400);
    const badTime = await post(`/v3/orgs/${tenant.org.id}/site-settings`, {
      data: { type: 'site-settings', attributes: { closing_time: '25:00' }, relationships: at(yard) },
    });
    expect(badTime.status).toBe(400);
  });

  it('one open attendance per person per site: a second sign-in is 409; of two at once, exactly one wins', async () => {
    expect((await signIn(people[1] ?? '', depot)).status).toBe(409);
    const both = await Promise.all([signIn(people[4] ?? '', depot), signIn(people[4] ?? '', depot)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await onSite(depot)).filter((p: string) => p === people[4])).toHaveLength(1);
    // Another site is another attendance (a site without inductions checks none).
    expect((await signIn(people[4] ?? '', yard)).status).toBe(201);
  });

  it('guests: a visitor is signed in unchecked; a worker without an account is refused unless overridden', async () => {
    const visitor = await signIn(null, depot, {
      attendee_kind: 'visitor',
      guest: { name: 'Ann Inspector', company: 'HSE' },
    });
    expect(visitor.status, visitor.text).toBe(201);
    expect(visitor.body.data.attributes.checks.outcome).toBe('not_checked');
    expect((await signIn(null, depot, { guest: { name: 'Day labourer' } })).status).toBe(409);
    expect((await signIn(null, depot)).status).toBe(400);
  });

  it('overriding the gate needs site-attendances:override: a gatekeeper with manage alone is 403, and nothing is written', async () => {
    const role = await post(`/v3/orgs/${tenant.org.id}/iam/roles`, {
      data: { type: 'roles', attributes: { name: 'Gatekeeper', permissions: ['site-attendances:manage'] } },
    });
    const gatekeeper = await createUser(tenant.org.id, {
      email: 'gate@sites.example',
      first_name: 'Gate',
      last_name: 'Keeper',
    });
    await grantRole(tenant.org.id, role.body.data.id, 'user', gatekeeper.id);
    const session = { 'x-session-token': (await startSession(gatekeeper.id)).token };
    const body = {
      data: {
        type: 'site-attendances',
        attributes: { method_in: 'manual', override: { reason: 'I know him.' } },
        relationships: { ...at(yard), person: { data: { type: 'users', id: people[7] } } },
      },
    };
    const refused = await api.request('POST', attendances(), { headers: session, body });
    expect(refused.status, refused.text).toBe(403);
    expect(await onSite(yard)).not.toContain(people[7]);
    const { override: _override, ...plain } = body.data.attributes;
    const allowed = await api.request('POST', attendances(), {
      headers: session,
      body: { data: { ...body.data, attributes: plain } },
    });
    expect(allowed.status, allowed.text).toBe(201);
    expect(allowed.body.data.relationships.signed_in_by.data.id).toBe(gatekeeper.id);
  });

  it('a site without settings closes at the end of its day: the sign-in is on the schedule all the same', async () => {
    const open = await signIn(people[6] ?? '', yard);
    const end = nextClosing(Date.parse(open.body.data.attributes.signed_in_at), '23:59', 'Europe/London');
    await runDue(end, { orgId: tenant.org.id });
    const read = await api.get(`/v3/site-attendances/${open.body.data.id}`, viewer);
    expect(read.body.data.attributes).toMatchObject({
      method_out: 'auto',
      signed_out_at: new Date(end).toISOString(),
    });
  });

  it('the viewer cannot sign anyone in (403); another organisation cannot sign in at this site', async () => {
    expect((await signIn(people[5] ?? '', depot, {}, viewer)).status).toBe(403);
    const res = await api.request('POST', attendances(other.org.id), {
      token: outsider,
      body: {
        data: {
          type: 'site-attendances',
          attributes: { method_in: 'app' },
          relationships: { ...at(depot), person: { data: { type: 'users', id: other.people[0]?.id } } },
        },
      },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/data/relationships/location/data');
  });
});

describe('signing out and correcting', () => {
  it('sign-out ends the attendance (manual, by the gate), leaves "on site now", and a second is 409', async () => {
    const open = await signIn(people[5] ?? '', depot);
    const id = open.body.data.id;
    const res = await api.request('POST', `/v3/site-attendances/${id}/sign-out`, { token: admin });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ method_out: 'manual' });
    expect(res.body.data.meta.on_site).toBe(false);
    expect(await onSite(depot)).not.toContain(people[5]);
    expect((await api.request('POST', `/v3/site-attendances/${id}/sign-out`, { token: admin })).status).toBe(
      409,
    );
    const event = await latestEvent(tenant.org.id, 'site-attendance.signed-out', id);
    expect(event.data).toMatchObject({ attributes: { method_out: 'manual' } });
    // Signed out, they may sign in again.
    expect((await signIn(people[5] ?? '', depot)).status).toBe(201);
  });

  it('a correction keeps the value it replaces, who changed it and why; a reason is required', async () => {
    const open = await signIn(people[6] ?? '', depot);
    const id = open.body.data.id;
    await api.request('POST', `/v3/site-attendances/${id}/sign-out`, { token: admin });
    const start = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const patch = (attributes: object) =>
      api.request('PATCH', `/v3/site-attendances/${id}`, {
        token: admin,
        body: { data: { type: 'site-attendances', id, attributes } },
      });
    expect((await patch({ signed_in_at: start })).status).toBe(400);
    const res = await patch({
      signed_in_at: start,
      correction_reason: 'Kiosk was offline; signed in at the gate hut.',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes.signed_in_at).toBe(start);
    expect(res.body.data.attributes.corrections).toEqual([
      expect.objectContaining({
        field: 'signed_in_at',
        from: open.body.data.attributes.signed_in_at,
        to: start,
      }),
    ]);
    expect((await patch({ signed_out_at: start, correction_reason: 'x' })).status).toBe(400);
  });
});

describe('automatic sign-out at the site’s closing time (the schedule’s clock moved by the test)', () => {
  it('anyone still on site is signed out at closing time (method_out auto, an event), so every attendance has hours', async () => {
    const open = await signIn(people[3] ?? '', depot);
    expect(open.status, open.text).toBe(201);
    const closing = nextClosing(Date.parse(open.body.data.attributes.signed_in_at), '18:00', 'Europe/London');
    await runDue(closing - 60_000, { orgId: tenant.org.id });
    expect((await api.get(`/v3/site-attendances/${open.body.data.id}`, viewer)).body.data.meta.on_site).toBe(
      true,
    );
    await runDue(closing, { orgId: tenant.org.id });
    const read = await api.get(`/v3/site-attendances/${open.body.data.id}`, viewer);
    expect(read.body.data.attributes).toMatchObject({
      method_out: 'auto',
      signed_out_at: new Date(closing).toISOString(),
    });
    expect(await onSite(depot)).not.toContain(people[3]);
    const event = await latestEvent(tenant.org.id, 'site-attendance.signed-out', open.body.data.id);
    expect(event.actor).toMatchObject({ kind: 'system' });
  });
});

describe('registers and roll calls', () => {
  it('a day’s register is filter[day] in the organisation’s time zone', async () => {
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
    const res = await api.get(`${attendances()}?filter[day]=${today}&page[limit]=100`, viewer);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(5);
    const yesterday = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    expect((await api.get(`${attendances()}?filter[day]=${yesterday}`, viewer)).body.data).toEqual([]);
    expect((await api.get(`${attendances()}?filter[day]=tomorrow`, viewer)).status).toBe(400);
    // A date that does not exist is a 400 too, never a 500.
    expect((await api.get(`${attendances()}?filter[day]=2026-13-45`, viewer)).status).toBe(400);
  });

  it('an evacuation roll call: who is on site now, as a CSV export', async () => {
    const now = await onSite(depot);
    const res = await post(`/v3/orgs/${tenant.org.id}/exports`, {
      data: {
        type: 'exports',
        attributes: {
          subject_type: 'site-attendances',
          format: 'csv',
          filters: { on_site: 'true', location: depot },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes.row_count).toBe(now.length);
    const file = await fetch(res.body.data.meta.download.url);
    const lines = (await file.text()).trim().split('\n');
    expect(lines).toHaveLength(now.length + 1);
  });
});
