/**
 * Site attendances on the declared state machine (issue 41, items 1 and 7): sign-out is a transition a
 * client can see (`meta.allowed_transitions`, 409 STATE.001, If-Match); a worker signs themselves in and
 * out with `site-attendances:self` (the built-in viewer role holds it) through the same gate, and no one
 * else; a change of a site's closing time moves the automatic sign-out of the attendances open there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDue } from '#functions/due-work/run';
import { nextClosing } from '#functions/site-attendances/rules/site-day';
import { startSession } from '#shared/auth/sessions';
import { createUser, grantRole } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents, latestEvent } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
let gate: string;
let gated: string;
let induction: string;
/** Two workers holding the built-in viewer role alone, by their sessions. */
let ann: { id: string; session: Record<string, string> };
let bob: { id: string; session: Record<string, string> };

const attendances = () => `/v3/orgs/${tenant.org.id}/site-attendances`;
const at = (site: string) => ({ location: { data: { type: 'locations', id: site } } });
const signInBody = (person: string, site: string) => ({
  data: {
    type: 'site-attendances',
    attributes: { method_in: 'app' },
    relationships: { ...at(site), person: { data: { type: 'users', id: person } } },
  },
});
const asAdmin = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: object) =>
  api.request(method, path, { token: admin, ...(body && { body }) });
const signIn = (person: string, site: string) => asAdmin('POST', attendances(), signInBody(person, site));
const worker = async (email: string) => {
  const user = await createUser(tenant.org.id, { email, first_name: 'Site', last_name: 'Worker' });
  await grantRole(tenant.org.id, 'viewer', 'user', user.id);
  return { id: user.id, session: { 'x-session-token': (await startSession(user.id)).token } };
};
const location = async (name: string) =>
  (
    await asAdmin('POST', `/v3/orgs/${tenant.org.id}/governance/locations`, {
      data: { type: 'locations', attributes: { name } },
    })
  ).body.data.id as string;
const onSiteIds = async (site: string) =>
  (await asAdmin('GET', `${attendances()}?filter[on_site]=true&filter[location]=${site}`)).body.data.map(
    (a: { id: string }) => a.id,
  );

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Attendance Moves Org', 2);
  admin = await api.token(tenant.admin);
  [gate, gated] = await Promise.all([location('West gate'), location('Inducted yard')]);
  const type = await asAdmin('POST', `/v3/orgs/${tenant.org.id}/qualifications/types`, {
    data: {
      type: 'qualification-types',
      attributes: { kind: 'induction', name: 'Yard induction', has_expiry: false },
      relationships: { locations: { data: [{ type: 'locations', id: gated }] } },
    },
  });
  expect(type.status, type.text).toBe(201);
  induction = type.body.data.id;
  const settings = await asAdmin('POST', `/v3/orgs/${tenant.org.id}/site-settings`, {
    data: { type: 'site-settings', attributes: { closing_time: '18:00' }, relationships: at(gate) },
  });
  expect(settings.status, settings.text).toBe(201);
  [ann, bob] = await Promise.all([worker('ann@moves.example'), worker('bob@moves.example')]);
});
afterAll(() => api.close());

describe('sign-out is a declared transition', () => {
  it('an open attendance shows sign-out allowed; once signed out, refused with the reason', async () => {
    const open = await signIn(tenant.people[0]?.id ?? '', gate);
    expect(open.status, open.text).toBe(201);
    expect(open.body.data.meta.allowed_transitions).toEqual([
      { verb: 'sign-out', allowed: true, reasons: [] },
    ]);
    const out = await asAdmin('POST', `/v3/site-attendances/${open.body.data.id}/sign-out`);
    expect(out.status, out.text).toBe(200);
    const read = await asAdmin('GET', `/v3/site-attendances/${open.body.data.id}`);
    expect(read.body.data.meta.allowed_transitions).toEqual([
      { verb: 'sign-out', allowed: false, reasons: ['An attendance signed out cannot be signed out.'] },
    ]);
    const event = await latestEvent(tenant.org.id, 'site-attendance.signed-out', open.body.data.id);
    expect(event.data).toMatchObject({ transition: { verb: 'sign-out', from: 'on_site', to: 'signed_out' } });
  });

  it('a second sign-out is 409 STATE.001 with the state, the verb, nothing allowed and the reason', async () => {
    const open = await signIn(tenant.people[1]?.id ?? '', gate);
    const path = `/v3/site-attendances/${open.body.data.id}/sign-out`;
    expect((await asAdmin('POST', path)).status).toBe(200);
    const again = await asAdmin('POST', path);
    expect(again.status, again.text).toBe(409);
    expect(again.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      meta: {
        state: 'signed_out',
        verb: 'sign-out',
        allowed: [],
        reasons: ['An attendance signed out cannot be signed out.'],
      },
    });
  });

  it('If-Match on sign-out: a stale ETag is 412 and the attendance stays open', async () => {
    const open = await signIn(tenant.people[0]?.id ?? '', gate);
    const id = open.body.data.id;
    const stale = open.headers.get('etag') ?? '';
    const corrected = await asAdmin('PATCH', `/v3/site-attendances/${id}`, {
      data: {
        type: 'site-attendances',
        id,
        attributes: {
          signed_in_at: new Date(Date.now() - 3_600_000).toISOString(),
          correction_reason: 'Signed in at the hut.',
        },
      },
    });
    expect(corrected.status, corrected.text).toBe(200);
    const refused = await api.request('POST', `/v3/site-attendances/${id}/sign-out`, {
      token: admin,
      headers: { 'If-Match': stale },
    });
    expect(refused.status, refused.text).toBe(412);
    expect(refused.body.errors[0].code).toBe('PRECONDITION.001');
    expect(await onSiteIds(gate)).toContain(id);
    const current = await api.request('POST', `/v3/site-attendances/${id}/sign-out`, {
      token: admin,
      headers: { 'If-Match': corrected.headers.get('etag') ?? '' },
    });
    expect(current.status, current.text).toBe(200);
  });
});

describe('workers sign themselves in and out (site-attendances:self)', () => {
  it('a viewer signs themselves in and out: method self, and sign-out is open to them on their own record', async () => {
    const open = await api.request('POST', attendances(), {
      headers: ann.session,
      body: signInBody(ann.id, gate),
    });
    expect(open.status, open.text).toBe(201);
    expect(open.body.data.relationships.signed_in_by.data.id).toBe(ann.id);
    expect(open.body.data.meta.allowed_transitions).toEqual([
      { verb: 'sign-out', allowed: true, reasons: [] },
    ]);
    const out = await api.request('POST', `/v3/site-attendances/${open.body.data.id}/sign-out`, {
      headers: ann.session,
    });
    expect(out.status, out.text).toBe(200);
    expect(out.body.data.attributes.method_out).toBe('self');
  });

  it('with site-attendances:self alone, nobody else: signing in or out another person is 403 and nothing is written', async () => {
    const other = await api.request('POST', attendances(), {
      headers: bob.session,
      body: signInBody(ann.id, gate),
    });
    expect(other.status, other.text).toBe(403);
    expect(await onSiteIds(gate)).toHaveLength(0);
    const annsOpen = await signIn(ann.id, gate);
    const id = annsOpen.body.data.id;
    const seen = await api.request('GET', `/v3/site-attendances/${id}`, { headers: bob.session });
    expect(seen.body.data.meta.allowed_transitions).toEqual([
      {
        verb: 'sign-out',
        allowed: false,
        reasons: [
          'With site-attendances:self, a user signs only themselves out: signing in or out anyone else needs site-attendances:manage.',
        ],
      },
    ]);
    const out = await api.request('POST', `/v3/site-attendances/${id}/sign-out`, { headers: bob.session });
    expect(out.status, out.text).toBe(403);
    expect(await onSiteIds(gate)).toEqual([id]);
    expect((await asAdmin('POST', `/v3/site-attendances/${id}/sign-out`)).status).toBe(200);
  });

  it('a worker signing themselves in meets the same gate: without the site induction, 409 naming it', async () => {
    const refused = await api.request('POST', attendances(), {
      headers: bob.session,
      body: signInBody(bob.id, gated),
    });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.errors[0].detail).toContain(`qualification type ${induction}`);
    expect(await onSiteIds(gated)).toHaveLength(0);
  });
});

describe('a site’s closing time changed moves the automatic sign-out of who is still on site', () => {
  it('the open attendance is signed out at the new closing time; one signed out already is untouched', async () => {
    const site = await location('East gate');
    const settings = await asAdmin('POST', `/v3/orgs/${tenant.org.id}/site-settings`, {
      data: { type: 'site-settings', attributes: { closing_time: '18:00' }, relationships: at(site) },
    });
    const [open, left] = await Promise.all([signIn(ann.id, site), signIn(bob.id, site)]);
    const out = await asAdmin('POST', `/v3/site-attendances/${left.body.data.id}/sign-out`);
    expect(out.status, out.text).toBe(200);
    const changed = await asAdmin('PATCH', `/v3/site-settings/${settings.body.data.id}`, {
      data: { type: 'site-settings', id: settings.body.data.id, attributes: { closing_time: '16:30' } },
    });
    expect(changed.status, changed.text).toBe(200);
    await deliverEvents(tenant.org.id);
    const signedIn = Date.parse(open.body.data.attributes.signed_in_at);
    const closing = nextClosing(signedIn, '16:30', 'Europe/London');
    // Run up to the new closing time: were the entry still at 18:00's, it would sign out then (or not yet).
    await runDue(closing, { orgId: tenant.org.id });
    const read = await asAdmin('GET', `/v3/site-attendances/${open.body.data.id}`);
    expect(read.body.data.attributes).toMatchObject({
      method_out: 'auto',
      signed_out_at: new Date(closing).toISOString(),
    });
    const untouched = await asAdmin('GET', `/v3/site-attendances/${left.body.data.id}`);
    expect(untouched.body.data.attributes).toEqual(out.body.data.attributes);
    expect(untouched.body.data.meta.version ?? untouched.headers.get('etag')).toBe(
      out.body.data.meta.version ?? out.headers.get('etag'),
    );
  });
});
