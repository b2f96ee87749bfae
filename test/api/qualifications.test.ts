/**
 * Qualifications (issue 22): types, awards (pending approval → valid → expired; rejected and revoked
 * final), specifications combining types with all_of / any_of, evaluations of up to 100 people in one call,
 * users' filter[compliant_with], and expiry warnings on the schedule, with the runner's clock moved by the
 * test (never a sleep).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDue } from '#functions/due-work/run';
import { expiryAfter } from '#functions/qualifications/rules/awards';
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
let recorder: Record<string, string>;
let people: string[];

const DAY = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const dayFrom = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const org = (orgId = tenant.org.id) => `/v3/orgs/${orgId}/qualifications`;

const post = async (path: string, body: object, token = admin) => {
  const res = await api.request('POST', path, { token, body });
  return res;
};
const newType = async (attributes: object, relationships?: object) => {
  const res = await post(`${org()}/types`, {
    data: { type: 'qualification-types', attributes, relationships },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const award = (person: string, type: string, attributes: object = {}, token = admin) =>
  post(
    `${org()}/awards`,
    {
      data: {
        type: 'qualification-awards',
        attributes: { issued_at: dayFrom(-10), ...attributes },
        relationships: {
          person: { data: { type: 'users', id: person } },
          qualification_type: { data: { type: 'qualification-types', id: type } },
        },
      },
    },
    token,
  );
const approve = (id: string, token = admin) =>
  api.request('POST', `/v3/qualification-awards/${id}/approve`, { token });
const approved = async (person: string, type: string, attributes: object = {}) => {
  const res = await award(person, type, attributes);
  expect(res.status, res.text).toBe(201);
  const done = await approve(res.body.data.id);
  expect(done.status, done.text).toBe(200);
  return done.body.data;
};
const newSpecification = async (name: string, rule: object) => {
  const res = await post(`${org()}/specifications`, {
    data: { type: 'qualification-specifications', attributes: { name, rule } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const evaluation = (specification: string, persons: string[], on?: string, token = viewer) =>
  api.get(
    `/v3/qualification-specifications/${specification}/evaluation?filter[person]=${persons.join(',')}${on ? `&filter[on]=${on}` : ''}`,
    token,
  );

let induction: string;
let cscs: string;
let firstAid: string;

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([
    newTenant('Qualifications Org', 4),
    newTenant('Qualifications Other', 1),
  ]);
  [admin, viewer, outsider] = await Promise.all([
    api.token(tenant.admin),
    api.token(tenant.viewer),
    api.token(other.admin),
  ]);
  people = tenant.people.map((p) => p.id);
  // Someone who records awards but may not approve them: a custom role with qualifications:manage only.
  const role = await post(`/v3/orgs/${tenant.org.id}/iam/roles`, {
    data: { type: 'roles', attributes: { name: 'Training clerk', permissions: ['qualifications:manage'] } },
  });
  expect(role.status, role.text).toBe(201);
  const clerk = await createUser(tenant.org.id, {
    email: 'clerk@quals.example',
    first_name: 'Clerk',
    last_name: 'Q',
  });
  await grantRole(tenant.org.id, role.body.data.id, 'user', clerk.id);
  recorder = { 'x-session-token': (await startSession(clerk.id)).token };
  induction = await newType({
    kind: 'induction',
    name: 'Depot induction',
    has_expiry: true,
    validity_period: 'P1Y',
  });
  cscs = await newType({
    kind: 'registration',
    name: 'CSCS card',
    code: 'CSCS',
    has_expiry: true,
    validity_period: 'P5Y',
    evidence_required: true,
  });
  firstAid = await newType({
    kind: 'training',
    name: 'First aid at work',
    has_expiry: true,
    validity_period: 'P3Y',
  });
});
afterAll(() => api.close());

describe('qualification types', () => {
  it('a validity period must be an ISO 8601 duration of calendar units, and needs has_expiry', async () => {
    const bad = await post(`${org()}/types`, {
      data: {
        type: 'qualification-types',
        attributes: { kind: 'training', name: 'X', has_expiry: true, validity_period: 'PT5H' },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/validity_period');
    const noExpiry = await post(`${org()}/types`, {
      data: {
        type: 'qualification-types',
        attributes: { kind: 'training', name: 'X', has_expiry: false, validity_period: 'P1Y' },
      },
    });
    expect(noExpiry.status).toBe(400);
    expect(noExpiry.body.errors[0].source.pointer).toBe('/data/attributes/validity_period');
  });

  it('only an induction names sites; a code is unique in the organisation', async () => {
    const site = await post(`/v3/orgs/${tenant.org.id}/governance/locations`, {
      data: { type: 'locations', attributes: { name: 'Quals depot' } },
    });
    const sites = { locations: { data: [{ type: 'locations', id: site.body.data.id }] } };
    const refused = await post(`${org()}/types`, {
      data: {
        type: 'qualification-types',
        attributes: { kind: 'training', name: 'X', has_expiry: false },
        relationships: sites,
      },
    });
    expect(refused.status).toBe(400);
    const ok = await newType({ kind: 'induction', name: 'Quals depot induction', has_expiry: false }, sites);
    expect(
      (await api.get(`/v3/qualification-types/${ok}?include=locations`, viewer)).body.included,
    ).toHaveLength(1);
    const again = await post(`${org()}/types`, {
      data: {
        type: 'qualification-types',
        attributes: { kind: 'registration', name: 'Another', code: 'CSCS', has_expiry: false },
      },
    });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].source.pointer).toBe('/data/attributes/code');
  });
});

describe('qualification awards', () => {
  it('an award is recorded pending approval, its expiry computed from the validity period', async () => {
    const res = await award(people[0] ?? '', firstAid, { issued_at: '2024-02-29', number: 'FA-001' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({
      status: 'pending_approval',
      issued_at: '2024-02-29',
      expires_at: '2027-02-28',
      number: 'FA-001',
    });
    expect(res.body.data.relationships.person.data.id).toBe(people[0]);
  });

  it('an award of an expiring type without a period needs expires_at; a type that does not expire takes none', async () => {
    const noPeriod = await newType({
      kind: 'assessment',
      name: 'Confined space assessment',
      has_expiry: true,
    });
    const missing = await award(people[0] ?? '', noPeriod);
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].source.pointer).toBe('/data/attributes/expires_at');
    const forever = await newType({ kind: 'registration', name: 'Degree', has_expiry: false });
    const given = await award(people[0] ?? '', forever, { expires_at: dayFrom(100) });
    expect(given.status).toBe(400);
    const backwards = await award(people[0] ?? '', noPeriod, { expires_at: dayFrom(-20) });
    expect(backwards.status).toBe(400);
  });

  it('an award names a person and a type of the organisation (400 at the relationship otherwise)', async () => {
    const stranger = await award(other.people[0]?.id ?? '', firstAid);
    expect(stranger.status, stranger.text).toBe(400);
    expect(stranger.body.errors[0].source.pointer).toBe('/data/relationships/person/data');
    const res = await api.get(`${org()}/awards?filter[person]=${other.people[0]?.id}`, viewer);
    expect(res.body.data).toEqual([]);
  });

  it('approving needs qualifications:approve: a clerk with manage records and revokes but is 403 on approve', async () => {
    const recorded = await api.request('POST', `${org()}/awards`, {
      headers: recorder,
      body: {
        data: {
          type: 'qualification-awards',
          attributes: { issued_at: dayFrom(-1) },
          relationships: {
            person: { data: { type: 'users', id: people[1] } },
            qualification_type: { data: { type: 'qualification-types', id: firstAid } },
          },
        },
      },
    });
    expect(recorded.status, recorded.text).toBe(201);
    const id = recorded.body.data.id;
    const refused = await api.request('POST', `/v3/qualification-awards/${id}/approve`, {
      headers: recorder,
    });
    expect(refused.status).toBe(403);
    expect((await approve(id)).body.data.attributes.status).toBe('valid');
    const revoked = await api.request('POST', `/v3/qualification-awards/${id}/revoke`, { headers: recorder });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.data.attributes.status).toBe('revoked');
    expect((await approve(id)).status).toBe(409);
  });

  it('four eyes: a holder of qualifications:approve cannot approve or reject their own award (403, unchanged); another approver can', async () => {
    const role = await post(`/v3/orgs/${tenant.org.id}/iam/roles`, {
      data: {
        type: 'roles',
        attributes: {
          name: 'Site supervisor',
          permissions: ['qualifications:manage', 'qualifications:approve'],
        },
      },
    });
    expect(role.status, role.text).toBe(201);
    const supervisor = await createUser(tenant.org.id, {
      email: 'supervisor@quals.example',
      first_name: 'Supervisor',
      last_name: 'Q',
    });
    await grantRole(tenant.org.id, role.body.data.id, 'user', supervisor.id);
    const self = { 'x-session-token': (await startSession(supervisor.id)).token };
    const banksman = await newType({ kind: 'training', name: 'Banksman', has_expiry: false });
    const own = await api.request('POST', `${org()}/awards`, {
      headers: self,
      body: {
        data: {
          type: 'qualification-awards',
          attributes: { issued_at: dayFrom(-1) },
          relationships: {
            person: { data: { type: 'users', id: supervisor.id } },
            qualification_type: { data: { type: 'qualification-types', id: banksman } },
          },
        },
      },
    });
    expect(own.status, own.text).toBe(201);
    const id = own.body.data.id;
    for (const verb of ['approve', 'reject']) {
      const refused = await api.request('POST', `/v3/qualification-awards/${id}/${verb}`, { headers: self });
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.errors[0]).toMatchObject({
        code: 'AUTH.002',
        detail: expect.stringMatching(/own award/),
      });
    }
    const unchanged = await api.get(`/v3/qualification-awards/${id}`, viewer);
    expect(unchanged.body.data.attributes.status).toBe('pending_approval');
    expect(unchanged.body.data.relationships.verified_by.data).toBeNull();
    expect(unchanged.body.data.meta.updated_at).toBe(own.body.data.meta.updated_at);
    // The supervisor decides other people's awards, and another approver decides theirs.
    const theirs = await award(people[1] ?? '', banksman);
    const decided = await api.request('POST', `/v3/qualification-awards/${theirs.body.data.id}/approve`, {
      headers: self,
    });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body.data.relationships.verified_by.data.id).toBe(supervisor.id);
    const approvedByAnother = await approve(id);
    expect(approvedByAnother.status, approvedByAnother.text).toBe(200);
    expect(approvedByAnother.body.data.attributes.status).toBe('valid');
  });

  it('a type that requires evidence is approved only with a folder of evidence (409 without)', async () => {
    const res = await award(people[2] ?? '', cscs, { number: 'CSCS-123' });
    const refused = await approve(res.body.data.id);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toMatch(/evidence/);
    expect(
      (await api.get(`/v3/qualification-awards/${res.body.data.id}`, viewer)).body.data.attributes.status,
    ).toBe('pending_approval');
  });

  it('a decided award keeps its dates (409: a renewal is a new award); it is deleted only while pending or rejected', async () => {
    const done = await approved(people[3] ?? '', firstAid);
    const patch = await api.request('PATCH', `/v3/qualification-awards/${done.id}`, {
      token: admin,
      body: { data: { type: 'qualification-awards', id: done.id, attributes: { issued_at: dayFrom(-2) } } },
    });
    expect(patch.status).toBe(409);
    const notes = await api.request('PATCH', `/v3/qualification-awards/${done.id}`, {
      token: admin,
      body: {
        data: { type: 'qualification-awards', id: done.id, attributes: { notes: 'Seen the certificate.' } },
      },
    });
    expect(notes.status, notes.text).toBe(200);
    expect(
      (await api.request('DELETE', `/v3/qualification-awards/${done.id}`, { token: admin })).status,
    ).toBe(409);
    const pending = await award(people[3] ?? '', firstAid);
    const rejected = await api.request('POST', `/v3/qualification-awards/${pending.body.data.id}/reject`, {
      token: admin,
    });
    expect(rejected.body.data.attributes.status).toBe('rejected');
    expect(
      (await api.request('DELETE', `/v3/qualification-awards/${pending.body.data.id}`, { token: admin }))
        .status,
    ).toBe(204);
  });

  it('a type with awards is not deleted (409)', async () => {
    const res = await api.request('DELETE', `/v3/qualification-types/${firstAid}`, { token: admin });
    expect(res.status).toBe(409);
  });

  it('another organisation sees none of it (404)', async () => {
    const res = await award(people[0] ?? '', induction);
    expect((await api.get(`/v3/qualification-awards/${res.body.data.id}`, outsider)).status).toBe(404);
    expect(
      (await api.request('POST', `/v3/qualification-awards/${res.body.data.id}/approve`, { token: outsider }))
        .status,
    ).toBe(404);
  });
});

describe('qualification specifications and evaluations', () => {
  let specification: string;
  beforeAll(async () => {
    // people[0]: induction and first aid; people[1]: induction only; people[2]: nothing approved.
    await approved(people[0] ?? '', induction);
    await approved(people[0] ?? '', firstAid, { issued_at: dayFrom(-5) });
    await approved(people[1] ?? '', induction);
    specification = await newSpecification('Depot operative', {
      all_of: [
        { qualification_type: induction },
        { any_of: [{ qualification_type: cscs }, { qualification_type: firstAid }] },
      ],
    });
  });

  it('a rule names types of the organisation (400 at the rule), nests at most 4 deep, and a named type is not deleted', async () => {
    const missing = await post(`${org()}/specifications`, {
      data: {
        type: 'qualification-specifications',
        attributes: { name: 'X', rule: { qualification_type: people[0] } },
      },
    });
    expect(missing.status, missing.text).toBe(400);
    expect(missing.body.errors[0].source.pointer).toBe('/data/attributes/rule');
    const deep = { all_of: [{ all_of: [{ all_of: [{ all_of: [{ qualification_type: induction }] }] }] }] };
    const tooDeep = await post(`${org()}/specifications`, {
      data: { type: 'qualification-specifications', attributes: { name: 'X', rule: deep } },
    });
    expect(tooDeep.status).toBe(400);
    expect((await api.request('DELETE', `/v3/qualification-types/${cscs}`, { token: admin })).status).toBe(
      409,
    );
  });

  it('a type a specification names is freed when the specification changes or goes (its count moves with it)', async () => {
    const spare = await newType({ kind: 'assessment', name: 'Harness inspection', has_expiry: false });
    const named = await newSpecification('Working at height', { qualification_type: spare });
    expect((await api.get(`/v3/qualification-types/${spare}`, viewer)).body.data.meta.specifications).toBe(1);
    expect((await api.request('DELETE', `/v3/qualification-types/${spare}`, { token: admin })).status).toBe(
      409,
    );
    expect(
      (await api.request('DELETE', `/v3/qualification-specifications/${named}`, { token: admin })).status,
    ).toBe(204);
    expect((await api.get(`/v3/qualification-types/${spare}`, viewer)).body.data.meta.specifications).toBe(0);
    expect((await api.request('DELETE', `/v3/qualification-types/${spare}`, { token: admin })).status).toBe(
      204,
    );
  });

  it('a specification a job role or a site’s settings require is not deleted (409 naming them) until both clear it; the counts move with every write', async () => {
    const named = await newSpecification('Plant operative', { qualification_type: induction });
    const spec = (id: string | null = named) => ({
      required_specification: { data: id ? { type: 'qualification-specifications', id } : null },
    });
    const remove = () => api.request('DELETE', `/v3/qualification-specifications/${named}`, { token: admin });
    const counts = async () =>
      (await api.get(`/v3/qualification-specifications/${named}`, viewer)).body.data.meta;
    const role = await post(`/v3/orgs/${tenant.org.id}/people/job-roles`, {
      data: {
        type: 'job-roles',
        attributes: { name: 'Plant operative', code: 'PLANT' },
        relationships: spec(),
      },
    });
    expect(role.status, role.text).toBe(201);
    const site = await post(`/v3/orgs/${tenant.org.id}/governance/locations`, {
      data: { type: 'locations', attributes: { name: 'Plant yard' } },
    });
    const settings = await post(`/v3/orgs/${tenant.org.id}/site-settings`, {
      data: {
        type: 'site-settings',
        attributes: { closing_time: '18:00' },
        relationships: { location: { data: { type: 'locations', id: site.body.data.id } }, ...spec() },
      },
    });
    expect(settings.status, settings.text).toBe(201);
    expect(await counts()).toMatchObject({ job_roles: 1, site_settings: 1 });
    const refused = await remove();
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toBe(
      'This specification is required (required_specification) by 1 job role and the settings of 1 site: change or clear them first.',
    );
    // A second role naming it, then deleted: counted, then uncounted.
    const second = await post(`/v3/orgs/${tenant.org.id}/people/job-roles`, {
      data: { type: 'job-roles', attributes: { name: 'Plant lead', code: 'PLANT-L' }, relationships: spec() },
    });
    expect((await counts()).job_roles).toBe(2);
    expect(
      (await api.request('DELETE', `/v3/job-roles/${second.body.data.id}`, { token: admin })).status,
    ).toBe(204);
    expect((await counts()).job_roles).toBe(1);
    // The role moves to another specification; the site clears its requirement.
    const patchRole = await api.request('PATCH', `/v3/job-roles/${role.body.data.id}`, {
      token: admin,
      body: { data: { type: 'job-roles', id: role.body.data.id, relationships: spec(specification) } },
    });
    expect(patchRole.status, patchRole.text).toBe(200);
    expect(await counts()).toMatchObject({ job_roles: 0, site_settings: 1 });
    const stillRefused = await remove();
    expect(stillRefused.status).toBe(409);
    expect(stillRefused.body.errors[0].detail).toMatch(/by the settings of 1 site:/);
    const patchSettings = await api.request('PATCH', `/v3/site-settings/${settings.body.data.id}`, {
      token: admin,
      body: { data: { type: 'site-settings', id: settings.body.data.id, relationships: spec(null) } },
    });
    expect(patchSettings.status, patchSettings.text).toBe(200);
    expect(await counts()).toMatchObject({ job_roles: 0, site_settings: 0 });
    expect((await remove()).status).toBe(204);
    // Naming a specification that is not there is a 400 at the relationship, nothing written.
    const dangling = await post(`/v3/orgs/${tenant.org.id}/people/job-roles`, {
      data: { type: 'job-roles', attributes: { name: 'Ghost', code: 'GHOST' }, relationships: spec() },
    });
    expect(dangling.status, dangling.text).toBe(400);
    expect(dangling.body.errors[0].source.pointer).toBe('/data/relationships/required_specification/data');
  });

  it('an evaluation answers, per person and per part of the rule, met or not and the awards that meet it', async () => {
    const res = await evaluation(specification, [people[0] ?? '', people[1] ?? '', people[2] ?? '']);
    expect(res.status, res.text).toBe(200);
    const byPerson = new Map(res.body.data.map((e: { id: string }) => [e.id, e]));
    const first = byPerson.get(people[0]) as {
      attributes: { met: boolean; rule: { all_of: { met: boolean; awards?: { expires_at: string }[] }[] } };
    };
    expect(first.attributes.met).toBe(true);
    expect(first.attributes.rule.all_of[0]?.awards?.[0]?.expires_at).toBe(expiryAfter(dayFrom(-10), 'P1Y'));
    const second = byPerson.get(people[1]) as {
      attributes: { met: boolean; rule: { all_of: { met: boolean }[] } };
    };
    expect(second.attributes.met).toBe(false);
    expect(second.attributes.rule.all_of.map((part) => part.met)).toEqual([true, false]);
    expect((byPerson.get(people[2]) as { attributes: { met: boolean } }).attributes.met).toBe(false);
    const metOnly = await api.get(
      `/v3/qualification-specifications/${specification}/evaluation?filter[person]=${people.join(',')}&filter[met]=true`,
      viewer,
    );
    expect(metOnly.body.data.map((e: { id: string }) => e.id)).toEqual([people[0]]);
  });

  it('filter[on] evaluates another day: before the first-aid course, the person did not meet it', async () => {
    const res = await evaluation(specification, [people[0] ?? ''], dayFrom(-7));
    expect(res.body.data[0].attributes.met).toBe(false);
    expect((await evaluation(specification, [people[0] ?? ''], '2026-02-30')).status).toBe(400);
  });

  it('up to 100 people in one call; 101 is 400; a person of another organisation is 400, never evaluated', async () => {
    const many = Array.from(
      { length: 101 },
      (_, i) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    );
    expect((await evaluation(specification, many)).status).toBe(400);
    const stranger = await evaluation(specification, [other.people[0]?.id ?? '']);
    expect(stranger.status).toBe(400);
    expect(stranger.body.errors[0].source.parameter).toBe('filter[person]');
    expect((await evaluation(specification, [people[0] ?? ''], undefined, outsider)).status).toBe(404);
  });

  it('users?filter[compliant_with] lists who meets it today; a job role names the specification it requires', async () => {
    const res = await api.get(
      `/v3/orgs/${tenant.org.id}/people/users?filter[compliant_with]=${specification}`,
      viewer,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((u: { id: string }) => u.id)).toEqual([people[0]]);
    expect(res.body.links.self).toContain('compliant_with');
    const role = await post(`/v3/orgs/${tenant.org.id}/people/job-roles`, {
      data: {
        type: 'job-roles',
        attributes: { name: 'Depot operative', code: 'DOP' },
        relationships: {
          required_specification: { data: { type: 'qualification-specifications', id: specification } },
        },
      },
    });
    expect(role.status, role.text).toBe(201);
    expect(role.body.data.relationships.required_specification.data.id).toBe(specification);
    expect(
      (await api.get(`/v3/orgs/${tenant.org.id}/people/users?filter[compliant_with]=nope`, viewer)).status,
    ).toBe(400);
  });
});

describe('expiry warnings on the schedule (the runner’s clock moved by the test)', () => {
  it('30 and 7 days before: qualification-award.expiring; on the day: .expired, and the award is expired', async () => {
    const issued = dayFrom(-300);
    const expires = dayFrom(40);
    const done = await approved(people[3] ?? '', induction, { issued_at: issued, expires_at: expires });
    const expiry = Date.parse(`${expires}T00:00:00Z`);
    const run = (at: number) => runDue(at, { orgId: tenant.org.id });
    await run(expiry - 31 * DAY);
    expect(
      (await api.get(`/v3/qualification-awards/${done.id}`, viewer)).body.data.meta.expiry_warning,
    ).toBeUndefined();
    await run(expiry - 30 * DAY);
    const first = await latestEvent(tenant.org.id, 'qualification-award.expiring', done.id);
    expect(first.data).toMatchObject({ meta: { expiry_warning: { days: 30 } } });
    // Run again at the same time: the warning ran once.
    expect((await run(expiry - 30 * DAY)).ran).toBe(0);
    await run(expiry - 7 * DAY);
    expect((await latestEvent(tenant.org.id, 'qualification-award.expiring', done.id)).data).toMatchObject({
      meta: { expiry_warning: { days: 7 } },
    });
    await run(expiry);
    const expired = await latestEvent(tenant.org.id, 'qualification-award.expired', done.id);
    expect(expired.data).toMatchObject({ attributes: { status: 'expired' } });
    expect((await api.get(`/v3/qualification-awards/${done.id}`, viewer)).body.data.attributes.status).toBe(
      'expired',
    );
    expect((await run(expiry + 60 * DAY)).ran).toBe(0);
  });

  it('a revoked award comes off the schedule: no warning follows', async () => {
    const done = await approved(people[2] ?? '', induction, { expires_at: dayFrom(20) });
    await api.request('POST', `/v3/qualification-awards/${done.id}/revoke`, { token: admin });
    expect((await runDue(Date.now() + 30 * DAY, { orgId: tenant.org.id })).ran).toBe(0);
    expect((await api.get(`/v3/qualification-awards/${done.id}`, viewer)).body.data.attributes.status).toBe(
      'revoked',
    );
  });

  it('an award approved after its expiry date is expired by the next run', async () => {
    const done = await approved(people[2] ?? '', firstAid, {
      issued_at: dayFrom(-400),
      expires_at: dayFrom(-1),
    });
    expect(done.attributes.status).toBe('valid');
    await runDue(Date.now(), { orgId: tenant.org.id });
    expect((await api.get(`/v3/qualification-awards/${done.id}`, viewer)).body.data.attributes.status).toBe(
      'expired',
    );
    expect(today() >= done.attributes.expires_at).toBe(true);
  });
});
