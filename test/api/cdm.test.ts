/**
 * CDM 2015: duty holders, pre-construction information, construction phase plans and proposed changes.
 * The walk-through (test/scenarios/cdm.ts) runs first; each rule of the issue and of the spec's
 * POST …/proposed-changes then has its own named test against the scheme it built.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '#shared/auth/sessions';
import { createTeam, createUser, grantRole } from '../../infra/local/records';
import { type Party, runCdmScenario, type ScenarioResult } from '../scenarios/cdm';
import { startTestApi, type TestApi } from '../support/api';
import { deliverEvents } from '../support/event-stream';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let admin: string;
let s: ScenarioResult;
const steps: string[] = [];

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('CDM Org', 0), newTenant('CDM Other', 0)]);
  admin = await api.token(tenant.admin);
  s = await runCdmScenario(api, tenant.org.id, admin, (line) => steps.push(line));
}, 120_000);
afterAll(() => api.close());

const CHANGE = 'construction-phase-plan-proposed-changes';
const section = (text: string) => ({ text });
const as = (party: Party) => s.tokens[party];
const planPath = () => `/v3/construction-phase-plans/${s.planId}`;
const propose = (party: Party, body: object) =>
  api.request('POST', `${planPath()}/proposed-changes`, { token: as(party), body });
const change = (attributes: object, relationships?: object, extra: object = {}) => ({
  data: { type: CHANGE, attributes, ...(relationships && { relationships }), ...extra },
});
const decide = (party: Party, id: string, attributes: object) =>
  api.request('PATCH', `/v3/construction-phase-plan-proposed-changes/${id}`, {
    token: as(party),
    body: { data: { type: CHANGE, id, attributes } },
  });
const ref = (type: string, id: string) => ({ data: { type, id } });
const pointers = (body: { errors: { source?: { pointer?: string } }[] }) =>
  body.errors.map((e) => e.source?.pointer);
const expectForbidden = (
  res: { status: number; body: { errors: { code: string; detail: string }[] } },
  role: RegExp,
) => {
  expect(res.status).toBe(403);
  expect(res.body.errors[0]?.code).toBe('AUTH.002');
  expect(res.body.errors[0]?.detail).toMatch(role);
};
const newScheme = async () => {
  const contract = await api.request('POST', `/v3/orgs/${tenant.org.id}/projects/scheme-contracts`, {
    token: admin,
    body: { data: { type: 'scheme-contracts', attributes: { name: 'Second region' } } },
  });
  const scheme = await api.request('POST', `/v3/orgs/${tenant.org.id}/projects/schemes`, {
    token: admin,
    body: {
      data: {
        type: 'schemes',
        attributes: { name: 'Second scheme' },
        relationships: { contracts: { data: [{ type: 'scheme-contracts', id: contract.body.data.id }] } },
      },
    },
  });
  expect(scheme.status, scheme.text).toBe(201);
  return scheme.body.data.id as string;
};
const appoint = (token: string, schemeId: string, role: string, party: Party) =>
  api.request('POST', `/v3/orgs/${tenant.org.id}/projects/schemes/${schemeId}/appointments`, {
    token,
    body: {
      data: {
        type: 'appointments',
        attributes: { role },
        relationships: { service_account: ref('service-accounts', s.principals[party]) },
      },
    },
  });

const schemePath = (schemeId: string) => `/v3/orgs/${tenant.org.id}/projects/schemes/${schemeId}`;
const postPack = (schemeId: string, party: Party = 'client') =>
  api.request('POST', `${schemePath(schemeId)}/pre-construction-information`, {
    token: as(party),
    body: { data: { type: 'pre-construction-information' } },
  });
const postPlan = (schemeId: string, party: Party = 'principalContractor') =>
  api.request('POST', `${schemePath(schemeId)}/construction-phase-plan`, {
    token: as(party),
    body: { data: { type: 'construction-phase-plans' } },
  });
/** A new scheme whose Client is appointed, and the Client's appointment of one more duty holder if named. */
const schemeWithClient = async (also?: [role: string, party: Party]) => {
  const schemeId = await newScheme();
  expect((await appoint(admin, schemeId, 'client', 'client')).status).toBe(201);
  if (also) expect((await appoint(as('client'), schemeId, ...also)).status).toBe(201);
  return schemeId;
};

describe('the CDM walk-through', () => {
  it('runs from appointments to an accepted and a rejected proposal', () => {
    expect(steps.join('\n')).toMatch(
      /appointed[\s\S]*pre-construction information[\s\S]*handed over[\s\S]*the Client accepted it[\s\S]*rejected it/,
    );
  });

  it('the accepted risk-with-new-hazard change created the hazard and the risk in the plan’s next version', async () => {
    const accepted = await api.get(
      `/v3/construction-phase-plan-proposed-changes/${s.acceptedChange}`,
      as('client'),
    );
    const proposalId = accepted.body.data.relationships.hazard_proposal.data.id;
    const proposal = await api.get(`/v3/hazard-proposals/${proposalId}`, as('client'));
    expect(proposal.body.data.attributes.status).toBe('accepted');
    const newHazard = proposal.body.data.relationships.site_hazard.data.id;
    const plan = await api.get(`${planPath()}?include=risks,risks.hazard`, as('client'));
    const risks = plan.body.included.filter(
      (r: { type: string }) => r.type === 'construction-phase-plan-risks',
    );
    // Other tests go on changing this plan: look for this change's risk and version, not at totals.
    expect(
      risks.filter(
        (r: { relationships: { hazard: { data: { id: string } } } }) =>
          r.relationships.hazard.data.id === newHazard,
      ),
    ).toHaveLength(1);
    const versions = await api.get(`${planPath()}/versions?page[limit]=100`, as('client'));
    const made = versions.body.data.find(
      (v: { relationships: { proposed_change: { data: { id: string } | null } } }) =>
        v.relationships.proposed_change.data?.id === s.acceptedChange,
    );
    expect(made.attributes.version).toBe(accepted.body.data.meta.based_on_version + 1);
    const hazards = await api.get(
      `/v3/pre-construction-information/${s.packId}/site-hazards?filter[status]=active`,
      as('client'),
    );
    expect(hazards.body.data.map((h: { id: string }) => h.id)).toContain(newHazard);
  });

  it('every version of the plan is in its history, the accepted change naming itself', async () => {
    const versions = await api.get(`${planPath()}/versions?page[limit]=100`, as('client'));
    expect(versions.status).toBe(200);
    const numbers = versions.body.data.map((v: { attributes: { version: number } }) => v.attributes.version);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    const accepted = versions.body.data.filter(
      (v: { relationships: { proposed_change: { data: { id: string } | null } } }) =>
        v.relationships.proposed_change.data?.id === s.acceptedChange,
    );
    expect(accepted).toHaveLength(1);
    expect(accepted[0].attributes).toMatchObject({ sections: ['risks'], operation: 'create' });
  });

  it('a version has a page of its own (issue 15): it answers the history’s entry; another organisation gets 404', async () => {
    const [first] = (await api.get(`${planPath()}/versions`, as('client'))).body.data;
    expect(first.links.self).toBe(`${api.url}/v3/construction-phase-plan-versions/${first.id}`);
    const read = await api.get(`/v3/construction-phase-plan-versions/${first.id}`, as('client'));
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toEqual(first);
    const foreign = await api.get(
      `/v3/construction-phase-plan-versions/${first.id}`,
      await api.token(other.admin),
    );
    expect(foreign.status).toBe(404);
  });

  it('decisions are audit events of the organisation: who decided, and the status they changed', async () => {
    await deliverEvents(tenant.org.id);
    const events = await api.get(
      `/v3/orgs/${tenant.org.id}/audit-events?filter[action]=proposed-change.accepted&filter[subject_id]=${s.acceptedChange}`,
      admin,
    );
    expect(events.body.data).toHaveLength(1);
    const [entry] = events.body.data;
    expect(entry.attributes).toMatchObject({
      subject: { type: 'construction-phase-plan-proposed-changes', id: s.acceptedChange },
      before: { attributes: { status: 'pending' } },
      after: { attributes: { status: 'accepted' } },
    });
    // The Client decided it (a service account in the walk-through).
    expect(entry.attributes.actor).toEqual({ kind: 'service-account', id: s.principals.client });
    expect(entry.relationships.actor_service_account.data.id).toBe(s.principals.client);
  });
});

describe('duty holders on a scheme', () => {
  it('the first appointment is the Client’s (409 otherwise); then only the Client appoints (403 naming the Client)', async () => {
    const schemeId = await newScheme();
    const early = await appoint(admin, schemeId, 'principal_contractor', 'principalContractor');
    expect(early.status).toBe(409);
    expect((await appoint(admin, schemeId, 'client', 'client')).status).toBe(201);
    expectForbidden(await appoint(admin, schemeId, 'designer', 'designer'), /only the Client/i);
    expect((await appoint(as('client'), schemeId, 'designer', 'designer')).status).toBe(201);
  });

  it('one Principal Contractor at a time: a second is 409 until the first appointment ends', async () => {
    const res = await appoint(as('client'), s.schemeId, 'principal_contractor', 'outsider');
    expect(res.status).toBe(409);
    expect(res.body.errors[0].code).toBe('CONFLICT.001');
  });

  it('an appointment names exactly one principal (400)', async () => {
    const res = await api.request(
      'POST',
      `/v3/orgs/${tenant.org.id}/projects/schemes/${s.schemeId}/appointments`,
      {
        token: as('client'),
        body: {
          data: {
            type: 'appointments',
            attributes: { role: 'contractor' },
            relationships: {
              service_account: ref('service-accounts', s.principals.outsider),
              user: ref('users', s.principals.outsider),
            },
          },
        },
      },
    );
    expect(res.status).toBe(400);
  });

  it('ending keeps the appointment as history; the ended holder loses the role; ending twice is 409', async () => {
    const schemeId = await schemeWithClient();
    const contractor = await appoint(as('client'), schemeId, 'contractor', 'contractor');
    const id = contractor.body.data.id;
    const end = (token: string) =>
      api.request('PATCH', `/v3/appointments/${id}`, {
        token,
        body: {
          data: { type: 'appointments', id, attributes: { status: 'ended', end_reason: 'Package complete' } },
        },
      });
    expectForbidden(await end(as('contractor')), /Client/);
    const ended = await end(as('client'));
    expect(ended.status).toBe(200);
    expect(ended.body.data.attributes).toMatchObject({ status: 'ended', end_reason: 'Package complete' });
    expect(ended.body.data.relationships.ended_by_service_account.data.id).toBe(s.principals.client);
    expect((await end(as('client'))).status).toBe(409);
    const pack = await postPack(schemeId, 'client');
    const proposal = await api.request(
      'POST',
      `/v3/pre-construction-information/${pack.body.data.id}/hazard-proposals`,
      {
        token: as('contractor'),
        body: {
          data: {
            type: 'hazard-proposals',
            attributes: { title: 'Late', severity: 'low', reason: 'After my time' },
          },
        },
      },
    );
    expectForbidden(proposal, /appointed/);
    const list = await api.get(
      `/v3/orgs/${tenant.org.id}/projects/schemes/${schemeId}/appointments?filter[status]=ended`,
      as('client'),
    );
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([id]);
    expect(list.body.meta.pagination.counts.resources).toBe(1);
  });

  it('another organisation’s service account is refused as an appointee exactly like a random id (issue 15, finding 1)', async () => {
    const schemeId = await newScheme();
    const appointing = (id: string) =>
      api.request('POST', `${schemePath(schemeId)}/appointments`, {
        token: admin,
        body: {
          data: {
            type: 'appointments',
            attributes: { role: 'client' },
            relationships: { service_account: ref('service-accounts', id) },
          },
        },
      });
    const comparable = (res: { status: number; body: { errors: { id: string }[] } }) => ({
      status: res.status,
      errors: res.body.errors.map(({ id: _id, ...rest }) => rest),
    });
    const foreign = await appointing(other.admin.principalId);
    expect(foreign.status, foreign.text).toBe(400);
    expect(comparable(foreign)).toEqual(comparable(await appointing(crypto.randomUUID())));
  });

  it('a team can be appointed: its members act in the role, other users do not', async () => {
    const schemeId = await schemeWithClient();
    const orgId = tenant.org.id;
    const [member, nonMember] = await Promise.all(
      ['member', 'non-member'].map((name) =>
        createUser(orgId, { email: `${name}@cdm.example`, first_name: name, last_name: 'Designer' }),
      ),
    );
    await Promise.all([member, nonMember].map((u) => grantRole(orgId, 'admin', 'user', u?.id ?? '')));
    const team = await createTeam(orgId, {
      name: 'Design team',
      description: 'Appointed',
      memberIds: [member?.id ?? ''],
    });
    const appointed = await api.request(
      'POST',
      `/v3/orgs/${orgId}/projects/schemes/${schemeId}/appointments`,
      {
        token: as('client'),
        body: {
          data: {
            type: 'appointments',
            attributes: { role: 'principal_designer' },
            relationships: { team: ref('teams', team.id) },
          },
        },
      },
    );
    expect(appointed.status, appointed.text).toBe(201);
    const pack = await api.request(
      'POST',
      `/v3/orgs/${orgId}/projects/schemes/${schemeId}/pre-construction-information`,
      {
        token: as('client'),
        body: { data: { type: 'pre-construction-information' } },
      },
    );
    const write = async (userId: string) =>
      api.request('PATCH', `/v3/pre-construction-information/${pack.body.data.id}`, {
        headers: { 'x-session-token': (await startSession(userId)).token },
        body: {
          data: {
            type: 'pre-construction-information',
            id: pack.body.data.id,
            attributes: { sections: { health_and_safety_file: section('Kept by the design team') } },
          },
        },
      });
    expect((await write(member?.id ?? '')).status).toBe(200);
    expectForbidden(await write(nonMember?.id ?? ''), /Principal Designer/);
  });
});

describe('pre-construction information', () => {
  it('a scheme has at most one pack: a second create is 409', async () => {
    const res = await api.request(
      'POST',
      `/v3/orgs/${tenant.org.id}/projects/schemes/${s.schemeId}/pre-construction-information`,
      {
        token: as('client'),
        body: { data: { type: 'pre-construction-information' } },
      },
    );
    expect(res.status).toBe(409);
  });

  it('the pack is the Client’s: anyone else creating it is 403 naming the Client', async () => {
    const schemeId = await schemeWithClient(['principal_designer', 'principalDesigner']);
    const res = await postPack(schemeId, 'principalDesigner');
    expectForbidden(res, /Client/);
  });

  it('each section is written only by its owning role (403 naming it)', async () => {
    const write = (party: Party, sections: object) =>
      api.request('PATCH', `/v3/pre-construction-information/${s.packId}`, {
        token: as(party),
        body: { data: { type: 'pre-construction-information', id: s.packId, attributes: { sections } } },
      });
    expectForbidden(
      await write('client', { significant_design_hazards: section('x') }),
      /Principal Designer/,
    );
    expectForbidden(await write('principalDesigner', { project_description: section('x') }), /Client/);
    expectForbidden(await write('contractor', { design_information: section('x') }), /Designer/);
    expect((await write('client', { project_description: section('Revised scope') })).status).toBe(200);
  });

  it('site hazards are the Client’s to write; retiring is final (409 after)', async () => {
    const res = await api.request('POST', `/v3/pre-construction-information/${s.packId}/site-hazards`, {
      token: as('principalContractor'),
      body: { data: { type: 'site-hazards', attributes: { title: 'Noise', severity: 'low' } } },
    });
    expectForbidden(res, /Client/);
    const again = await api.request('PATCH', `/v3/site-hazards/${s.hazards.asbestos}`, {
      token: as('client'),
      body: { data: { type: 'site-hazards', id: s.hazards.asbestos, attributes: { title: 'Changed' } } },
    });
    expect(again.status).toBe(409);
  });

  it('hazard proposals: only appointed duty holders propose; the Client decides; a rejection needs a reason; deciding twice is 409', async () => {
    const path = `/v3/pre-construction-information/${s.packId}/hazard-proposals`;
    const body = {
      data: {
        type: 'hazard-proposals',
        attributes: { title: 'Wasps', severity: 'low', reason: 'Nest seen' },
      },
    };
    expectForbidden(await api.request('POST', path, { token: as('outsider'), body }), /appointed/);
    const created = await api.request('POST', path, { token: as('designer'), body });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const decideHazard = (party: Party, attributes: object) =>
      api.request('PATCH', `/v3/hazard-proposals/${id}`, {
        token: as(party),
        body: { data: { type: 'hazard-proposals', id, attributes } },
      });
    expectForbidden(
      await decideHazard('principalContractor', { status: 'rejected', decision_reason: 'no' }),
      /Client/,
    );
    const noReason = await decideHazard('client', { status: 'rejected' });
    expect(noReason.status).toBe(400);
    expect(pointers(noReason.body)).toEqual(['/data/attributes/decision_reason']);
    expect(
      (await decideHazard('client', { status: 'rejected', decision_reason: 'Seasonal; covered by welfare' }))
        .status,
    ).toBe(200);
    expect((await decideHazard('client', { status: 'accepted' })).status).toBe(409);
    const pending = await api.get(`${path}?filter[status]=pending`, as('client'));
    expect(pending.body.data.map((p: { id: string }) => p.id)).not.toContain(id);
  });
});

describe('construction phase plan', () => {
  it('one plan per scheme (409), drawn up by the Principal Contractor (403 naming the role), after the PCI (409)', async () => {
    const again = await api.request(
      'POST',
      `/v3/orgs/${tenant.org.id}/projects/schemes/${s.schemeId}/construction-phase-plan`,
      {
        token: as('principalContractor'),
        body: { data: { type: 'construction-phase-plans' } },
      },
    );
    expect(again.status).toBe(409);
    const schemeId = await schemeWithClient(['principal_contractor', 'principalContractor']);
    const create = (party: Party) => postPlan(schemeId, party);
    expectForbidden(await create('client'), /Principal Contractor/);
    const noPack = await create('principalContractor');
    expect(noPack.status).toBe(409);
    expect(noPack.body.errors[0].detail).toMatch(/pre-construction information/);
  });

  it('before handover: sections by their owner only; risks need a hazard of this scheme’s PCI; handover needs a complete plan', async () => {
    const schemeId = await schemeWithClient(['principal_contractor', 'principalContractor']);
    const pack = await postPack(schemeId, 'client');
    const hazard = await api.request(
      'POST',
      `/v3/pre-construction-information/${pack.body.data.id}/site-hazards`,
      {
        token: as('client'),
        body: { data: { type: 'site-hazards', attributes: { title: 'Traffic', severity: 'high' } } },
      },
    );
    const plan = await postPlan(schemeId, 'principalContractor');
    const path = `/v3/construction-phase-plans/${plan.body.data.id}`;
    const write = (party: Party, sections: object) =>
      api.request('PATCH', path, {
        token: as(party),
        body: { data: { type: 'construction-phase-plans', id: plan.body.data.id, attributes: { sections } } },
      });
    expectForbidden(await write('principalContractor', { client_checklist: section('x') }), /Client/);
    expectForbidden(await write('client', { welfare: section('x') }), /Principal Contractor/);
    const risk = (hazardId: string | undefined) =>
      api.request('POST', `${path}/risks`, {
        token: as('principalContractor'),
        body: {
          data: {
            type: 'construction-phase-plan-risks',
            attributes: {
              title: 'Traffic management',
              control_measures: ['Chapter 8 layout'],
              residual_risk: 'low',
            },
            ...(hazardId && { relationships: { hazard: ref('site-hazards', hazardId) } }),
          },
        },
      });
    const missing = await risk(undefined);
    expect(missing.status).toBe(400);
    expect(pointers(missing.body)).toContain('/data/relationships');
    const foreign = await risk(s.hazards.excavation);
    expect(foreign.status).toBe(400);
    expect(pointers(foreign.body)).toEqual(['/data/relationships/hazard/data']);
    const incomplete = await api.request('POST', `${path}/handover`, { token: as('principalContractor') });
    expect(incomplete.status).toBe(409);
    expect(incomplete.body.errors[0].detail).toMatch(/section health_and_safety_aims is not written/);
    expect(incomplete.body.errors[0].detail).toMatch(/has no risk controlling it/);
    expect((await risk(hazard.body.data.id)).status).toBe(201);
    const stillIncomplete = await api.request('POST', `${path}/handover`, {
      token: as('principalContractor'),
    });
    expect(stillIncomplete.body.errors[0].detail).not.toMatch(/no risk controlling/);
  });

  it('handover is the Principal Contractor’s; after it, sections and risks are not written directly (409)', async () => {
    expectForbidden(
      await api.request('POST', `${planPath()}/handover`, { token: as('client') }),
      /Principal Contractor/,
    );
    expect(
      (await api.request('POST', `${planPath()}/handover`, { token: as('principalContractor') })).status,
    ).toBe(409);
    const write = await api.request('PATCH', planPath(), {
      token: as('principalContractor'),
      body: {
        data: {
          type: 'construction-phase-plans',
          id: s.planId,
          attributes: { sections: { welfare: section('x') } },
        },
      },
    });
    expect(write.status).toBe(409);
    expect(write.body.errors[0].detail).toMatch(/proposed changes/);
    const remove = await api.request('DELETE', `/v3/construction-phase-plan-risks/${s.risks[0]}`, {
      token: as('principalContractor'),
    });
    expect(remove.status).toBe(409);
  });
});

describe('POST /v3/construction-phase-plans/{id}/proposed-changes', () => {
  const welfare = {
    reason: 'More showers',
    section: 'welfare',
    operation: 'replace',
    proposed: { welfare: section('Three showers') },
  };

  it('200 with data = the pending change (proposer, proposed time, the plan version it was based on) and jsonapi', async () => {
    const plan = await api.get(planPath(), as('client'));
    const res = await propose('client', change(welfare));
    expect(res.status).toBe(200);
    expect(res.body.jsonapi).toBeDefined();
    expect(res.body.data).toMatchObject({
      type: CHANGE,
      attributes: { status: 'pending', section: 'welfare', operation: 'replace', proposer_role: 'client' },
      meta: { based_on_version: plan.body.data.meta.version },
      relationships: {
        proposed_by_service_account: { data: { type: 'service-accounts', id: s.principals.client } },
      },
    });
    expect(Date.parse(res.body.data.meta.proposed_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('data.type must be construction-phase-plan-proposed-changes (400 at /data/type)', async () => {
    const res = await propose('client', { data: { type: 'changes', attributes: welfare } });
    expect(res.status).toBe(400);
    expect(pointers(res.body)).toContain('/data/type');
  });

  it('attributes are only reason, section, operation, proposed (400 with the pointer)', async () => {
    const res = await propose('client', change({ ...welfare, urgency: 'high' }));
    expect(res.status).toBe(400);
    expect(pointers(res.body)).toEqual(['/data/attributes/urgency']);
  });

  it('reason has minimum length 1; section is one of the nine; operation one of four (400 each)', async () => {
    const empty = await propose('client', change({ ...welfare, reason: '' }));
    expect(pointers(empty.body)).toEqual(['/data/attributes/reason']);
    const badSection = await propose('client', change({ ...welfare, section: 'canteen' }));
    expect(pointers(badSection.body)).toContain('/data/attributes/section');
    const badOperation = await propose('client', change({ ...welfare, operation: 'upsert' }));
    expect(pointers(badOperation.body)).toContain('/data/attributes/operation');
    const noReason = await propose(
      'client',
      change({ section: 'welfare', operation: 'replace', proposed: welfare.proposed }),
    );
    expect(pointers(noReason.body)).toEqual(['/data/attributes/reason']);
  });

  it('relationships are only risk, hazard, hazard_proposal, each {data: identifier} (400 with the pointer)', async () => {
    const unknown = await propose('client', change(welfare, { scheme: ref('schemes', s.schemeId) }));
    expect(pointers(unknown.body)).toEqual(['/data/relationships/scheme']);
    const shape = await propose(
      'principalContractor',
      change({ reason: 'r', section: 'risks', operation: 'delete' }, { risk: { id: s.risks[0] } }),
    );
    expect(shape.status).toBe(400);
    expect(pointers(shape.body)).toContain('/data/relationships/risk/data');
  });

  it('a section-level change uses replace, and proposed holds exactly the one property named by section (400)', async () => {
    const notReplace = await propose('client', change({ ...welfare, operation: 'update' }));
    expect(pointers(notReplace.body)).toContain('/data/attributes/operation');
    const twoProperties = await propose(
      'client',
      change({ ...welfare, proposed: { welfare: section('a'), induction: section('b') } }),
    );
    expect(pointers(twoProperties.body)).toEqual(['/data/attributes/proposed']);
    const otherProperty = await propose(
      'client',
      change({ ...welfare, proposed: { induction: section('b') } }),
    );
    expect(pointers(otherProperty.body)).toEqual(['/data/attributes/proposed']);
    const badContent = await propose('client', change({ ...welfare, proposed: { welfare: { text: '' } } }));
    expect(pointers(badContent.body)).toEqual(['/data/attributes/proposed/welfare/text']);
  });

  it('a risk change uses create/update/delete; proposed holds risk for create and update, nothing for delete (400)', async () => {
    const risk = { title: 'Lifting', control_measures: ['Lift plan'], residual_risk: 'low' };
    const replace = await propose(
      'principalContractor',
      change({ reason: 'r', section: 'risks', operation: 'replace', proposed: { risk } }),
    );
    expect(pointers(replace.body)).toEqual(['/data/attributes/operation']);
    const noRisk = await propose(
      'principalContractor',
      change(
        { reason: 'r', section: 'risks', operation: 'update', proposed: { welfare: section('x') } },
        { risk: ref('construction-phase-plan-risks', s.risks[0] ?? '') },
      ),
    );
    expect(pointers(noRisk.body)).toEqual(['/data/attributes/proposed']);
    const deleteWithContent = await propose(
      'principalContractor',
      change(
        { reason: 'r', section: 'risks', operation: 'delete', proposed: { risk } },
        { risk: ref('construction-phase-plan-risks', s.risks[0] ?? '') },
      ),
    );
    expect(pointers(deleteWithContent.body)).toEqual(['/data/attributes/proposed']);
  });

  it('update and delete name the risk (400 at /data/relationships/risk)', async () => {
    const res = await propose(
      'principalContractor',
      change({ reason: 'r', section: 'risks', operation: 'delete' }),
    );
    expect(pointers(res.body)).toEqual(['/data/relationships/risk']);
  });

  it('a create names a hazard or a pending hazard_proposal of the scheme’s pack, not both, not neither (400)', async () => {
    const risk = { title: 'Lifting', control_measures: ['Lift plan'], residual_risk: 'low' };
    const create = { reason: 'r', section: 'risks', operation: 'create', proposed: { risk } };
    const neither = await propose('principalContractor', change(create));
    expect(pointers(neither.body)).toEqual(['/data/relationships/hazard']);
    const proposal = await api.request(
      'POST',
      `/v3/pre-construction-information/${s.packId}/hazard-proposals`,
      {
        token: as('contractor'),
        body: {
          data: {
            type: 'hazard-proposals',
            attributes: { title: 'Crane', severity: 'high', reason: 'Lift' },
          },
        },
      },
    );
    const both = await propose(
      'principalContractor',
      change(create, {
        hazard: ref('site-hazards', s.hazards.excavation),
        hazard_proposal: ref('hazard-proposals', proposal.body.data.id),
      }),
    );
    expect(pointers(both.body)).toEqual(['/data/relationships/hazard']);
    const retired = await propose(
      'principalContractor',
      change(create, { hazard: ref('site-hazards', s.hazards.asbestos) }),
    );
    expect(pointers(retired.body)).toEqual(['/data/relationships/hazard/data']);
  });

  it('a hazard of another scheme is 400', async () => {
    const schemeId = await schemeWithClient();
    const pack = await postPack(schemeId, 'client');
    const hazard = await api.request(
      'POST',
      `/v3/pre-construction-information/${pack.body.data.id}/site-hazards`,
      {
        token: as('client'),
        body: { data: { type: 'site-hazards', attributes: { title: 'Elsewhere', severity: 'low' } } },
      },
    );
    const res = await propose(
      'principalContractor',
      change(
        {
          reason: 'r',
          section: 'risks',
          operation: 'create',
          proposed: { risk: { title: 't', control_measures: ['c'], residual_risk: 'low' } },
        },
        { hazard: ref('site-hazards', hazard.body.data.id) },
      ),
    );
    expect(res.status).toBe(400);
    expect(pointers(res.body)).toEqual(['/data/relationships/hazard/data']);
  });

  it('proposer and time come from the request: a body that tries to set them is 400', async () => {
    const inAttributes = await propose(
      'client',
      change({ ...welfare, proposed_by: s.principals.principalContractor }),
    );
    expect(inAttributes.status).toBe(400);
    expect(pointers(inAttributes.body)).toEqual(['/data/attributes/proposed_by']);
    const inMeta = await propose(
      'client',
      change(welfare, undefined, { meta: { proposed_at: '2020-01-01T00:00:00Z' } }),
    );
    expect(inMeta.status).toBe(400);
    expect(pointers(inMeta.body)).toEqual(['/data/meta/proposed_at']);
    const inRelationships = await propose(
      'client',
      change(welfare, { proposer: ref('service-accounts', s.principals.client) }),
    );
    expect(pointers(inRelationships.body)).toEqual(['/data/relationships/proposer']);
  });

  it('only by the Client or the Principal Contractor: anyone else is 403 AUTH.002 naming them', async () => {
    for (const party of ['principalDesigner', 'designer', 'contractor', 'outsider'] as const) {
      expectForbidden(await propose(party, change(welfare)), /Client or the Principal Contractor/);
    }
  });

  it('only after handover: before it, 409 CONFLICT.001', async () => {
    const schemeId = await schemeWithClient(['principal_contractor', 'principalContractor']);
    await postPack(schemeId, 'client');
    const plan = await postPlan(schemeId, 'principalContractor');
    const res = await api.request(
      'POST',
      `/v3/construction-phase-plans/${plan.body.data.id}/proposed-changes`,
      {
        token: as('client'),
        body: change(welfare),
      },
    );
    expect(res.status).toBe(409);
    expect(res.body.errors[0].code).toBe('CONFLICT.001');
  });

  it('404 for an unknown plan and for another organisation’s plan', async () => {
    const unknown = await api.request(
      'POST',
      '/v3/construction-phase-plans/0190d5a0-0000-7000-8000-000000000000/proposed-changes',
      {
        token: as('client'),
        body: change(welfare),
      },
    );
    expect(unknown.status).toBe(404);
    const foreign = await api.request('POST', `${planPath()}/proposed-changes`, {
      token: await api.token(other.admin),
      body: change(welfare),
    });
    expect(foreign.status).toBe(404);
  });

  it('the route permission comes first: a viewer is 403', async () => {
    const res = await api.request('POST', `${planPath()}/proposed-changes`, {
      token: await api.token(tenant.viewer),
      body: change(welfare),
    });
    expect(res.status).toBe(403);
  });
});

describe('accepting and rejecting proposed changes', () => {
  const replaceChange = (name: string, text: string) =>
    change({
      reason: `Change ${name}`,
      section: name,
      operation: 'replace',
      proposed: { [name]: section(text) },
    });

  it('the other party decides; the proposer cannot decide their own change (403)', async () => {
    const mine = await propose('principalContractor', replaceChange('induction', 'Induction videos'));
    const id = mine.body.data.id;
    expectForbidden(
      await decide('principalContractor', id, { status: 'accepted' }),
      /cannot decide their own/,
    );
    expectForbidden(await decide('designer', id, { status: 'accepted' }), /Client/);
    const accepted = await decide('client', id, { status: 'accepted' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.relationships.decided_by_service_account.data.id).toBe(s.principals.client);
    const plan = await api.get(planPath(), as('client'));
    expect(plan.body.data.attributes.sections.induction).toEqual(section('Induction videos'));
  });

  it('decisions are final: deciding twice is 409; a rejection records its reason', async () => {
    const rejected = await api.get(
      `/v3/construction-phase-plan-proposed-changes/${s.rejectedChange}`,
      as('client'),
    );
    expect(rejected.body.data.attributes.decision_reason).toMatch(/single track/);
    const again = await decide('principalContractor', s.rejectedChange, { status: 'accepted' });
    expect(again.status).toBe(409);
  });

  it('a change whose section moved since its base version is 409; one elsewhere in the plan still applies', async () => {
    const first = await propose('client', replaceChange('monitoring_and_review', 'Fortnightly review'));
    const second = await propose('client', replaceChange('monitoring_and_review', 'Daily review'));
    const elsewhere = await propose('client', replaceChange('emergency_arrangements', 'Rescue team on site'));
    expect((await decide('principalContractor', first.body.data.id, { status: 'accepted' })).status).toBe(
      200,
    );
    const stale = await decide('principalContractor', second.body.data.id, { status: 'accepted' });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].detail).toMatch(/Section monitoring_and_review changed in version/);
    expect((await decide('principalContractor', elsewhere.body.data.id, { status: 'accepted' })).status).toBe(
      200,
    );
    const pending = await api.get(`${planPath()}/proposed-changes?filter[status]=pending`, as('client'));
    expect(pending.body.data.map((c: { id: string }) => c.id)).toContain(second.body.data.id);
  });

  it('a risk update and delete apply to the named risk, each as a new plan version', async () => {
    // A risk of its own (through an accepted change, the plan being handed over): the walk-through's stay.
    const riskIds = async () =>
      (await api.get(`${planPath()}/risks?page[limit]=100`, as('client'))).body.data.map(
        (r: { id: string }) => r.id as string,
      );
    const before = await riskIds();
    const create = await propose(
      'principalContractor',
      change(
        {
          reason: 'Lifting near the tower',
          section: 'risks',
          operation: 'create',
          proposed: { risk: { title: 'Lifting', control_measures: ['Lift plan'], residual_risk: 'low' } },
        },
        { hazard: ref('site-hazards', s.hazards.excavation) },
      ),
    );
    expect(create.status, create.text).toBe(200);
    expect((await decide('client', create.body.data.id, { status: 'accepted' })).status).toBe(200);
    const [risk] = (await riskIds()).filter((id: string) => !before.includes(id));
    expect(risk).toBeDefined();
    const update = await propose(
      'principalContractor',
      change(
        {
          reason: 'Stronger control',
          section: 'risks',
          operation: 'update',
          proposed: { risk: { residual_risk: 'medium' } },
        },
        { risk: ref('construction-phase-plan-risks', risk ?? '') },
      ),
    );
    expect(update.status, update.text).toBe(200);
    expect((await decide('client', update.body.data.id, { status: 'accepted' })).status).toBe(200);
    expect(
      (await api.get(`/v3/construction-phase-plan-risks/${risk}`, as('client'))).body.data.attributes
        .residual_risk,
    ).toBe('medium');
    const removal = await propose(
      'client',
      change(
        { reason: 'Merged into the goalposts risk', section: 'risks', operation: 'delete' },
        { risk: ref('construction-phase-plan-risks', risk ?? '') },
      ),
    );
    expect((await decide('principalContractor', removal.body.data.id, { status: 'accepted' })).status).toBe(
      200,
    );
    expect((await api.get(`/v3/construction-phase-plan-risks/${risk}`, as('client'))).status).toBe(404);
  });
});

describe('the declared moves of plans and proposed changes (issue 41)', () => {
  const changePath = (id: string) => `/v3/construction-phase-plan-proposed-changes/${id}`;
  const welfareChange = (text: string) =>
    change({
      reason: 'Welfare',
      section: 'welfare',
      operation: 'replace',
      proposed: { welfare: section(text) },
    });
  const transitions = async (path: string, party: Party) =>
    (await api.get(path, as(party))).body.data.meta.allowed_transitions;

  it('a draft plan’s allowed_transitions: the Client is refused by role, the Principal Contractor by each gap', async () => {
    const schemeId = await schemeWithClient(['principal_contractor', 'principalContractor']);
    await postPack(schemeId, 'client');
    const plan = await postPlan(schemeId, 'principalContractor');
    const path = `/v3/construction-phase-plans/${plan.body.data.id}`;
    expect(await transitions(path, 'client')).toEqual([
      {
        verb: 'handover',
        allowed: false,
        reasons: ['Only the Principal Contractor on this scheme may hand over the construction phase plan.'],
      },
    ]);
    const [handover] = await transitions(path, 'principalContractor');
    expect(handover.allowed).toBe(false);
    expect(handover.reasons).toContain('The plan is not complete: section welfare is not written.');
    expect(handover.reasons).toContain('The plan is not complete: the plan has no risks.');
    const refused = await api.request('POST', `${path}/handover`, { token: as('principalContractor') });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      meta: { state: 'draft', verb: 'handover', allowed: [], reasons: handover.reasons },
    });
  });

  it('a handed-over plan cannot be handed over again: 409 STATE.001 naming its state', async () => {
    const again = await api.request('POST', `${planPath()}/handover`, { token: as('principalContractor') });
    expect(again.status).toBe(409);
    expect(again.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      meta: { state: 'handed_over', reasons: ['A plan handed over cannot be handed over.'] },
    });
  });

  it('a pending change’s allowed_transitions: the proposer is refused by four eyes, the other party may decide', async () => {
    const proposed = await propose('client', welfareChange('Drying room'));
    const path = changePath(proposed.body.data.id);
    const mine = await transitions(path, 'client');
    expect(mine.map((t: { allowed: boolean }) => t.allowed)).toEqual([false, false]);
    expect(mine[0].reasons[0]).toMatch(/The proposer cannot decide their own change/);
    expect(await transitions(path, 'principalContractor')).toEqual([
      { verb: 'accept', allowed: true, reasons: [] },
      { verb: 'reject', allowed: true, reasons: [] },
    ]);
    expect((await transitions(path, 'designer'))[0].reasons).toEqual([
      'Only the Principal Contractor on this scheme may decide a change proposed by the Client.',
    ]);
  });

  it('POST …/reject needs a reason (400); POST …/accept applies the change; deciding again is 409 STATE.001', async () => {
    const proposed = await propose('client', welfareChange('Heated cabin'));
    const id = proposed.body.data.id;
    const noReason = await api.request('POST', `${changePath(id)}/reject`, {
      token: as('principalContractor'),
      body: { data: { type: CHANGE, attributes: {} } },
    });
    expect(noReason.status).toBe(400);
    expect(pointers(noReason.body)).toEqual(['/data/attributes/decision_reason']);
    const accepted = await api.request('POST', `${changePath(id)}/accept`, {
      token: as('principalContractor'),
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.data.attributes.status).toBe('accepted');
    expect((await api.get(planPath(), as('client'))).body.data.attributes.sections.welfare).toEqual(
      section('Heated cabin'),
    );
    const again = await api.request('POST', `${changePath(id)}/reject`, {
      token: as('principalContractor'),
      body: { data: { type: CHANGE, attributes: { decision_reason: 'Too late' } } },
    });
    expect(again.status).toBe(409);
    expect(again.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      meta: { state: 'accepted', verb: 'reject' },
    });
  });

  it('a change that no longer applies is refused with the reason, in allowed_transitions and as 409 STATE.001', async () => {
    const first = await propose('client', welfareChange('Canteen'));
    const second = await propose('client', welfareChange('Canteen and showers'));
    expect((await decide('principalContractor', first.body.data.id, { status: 'accepted' })).status).toBe(
      200,
    );
    const [accept] = await transitions(changePath(second.body.data.id), 'principalContractor');
    expect(accept.allowed).toBe(false);
    expect(accept.reasons[0]).toMatch(/Section welfare changed in version/);
    const stale = await decide('principalContractor', second.body.data.id, { status: 'accepted' });
    expect(stale.body.errors[0]).toMatchObject({ code: 'STATE.001', meta: { reasons: accept.reasons } });
  });

  it('If-Match on a move: a stale tag is 412 and the change stays pending', async () => {
    const proposed = await propose('principalContractor', welfareChange('Portable toilets'));
    const id = proposed.body.data.id;
    const res = await api.request('POST', `${changePath(id)}/accept`, {
      token: as('client'),
      headers: { 'If-Match': '"stale"' },
    });
    expect(res.status).toBe(412);
    expect(res.body.errors[0].code).toBe('PRECONDITION.001');
    expect((await api.get(changePath(id), as('client'))).body.data.attributes.status).toBe('pending');
  });
});

describe('the declared moves of hazard proposals', () => {
  const proposalPath = (id: string) => `/v3/hazard-proposals/${id}`;
  const proposeHazard = async (title: string) => {
    const res = await api.request('POST', `/v3/pre-construction-information/${s.packId}/hazard-proposals`, {
      token: as('designer'),
      body: { data: { type: 'hazard-proposals', attributes: { title, severity: 'medium', reason: 'Seen' } } },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const transitions = async (id: string, party: Party) =>
    (await api.get(proposalPath(id), as(party))).body.data.meta.allowed_transitions;
  const clientOnly = 'Only the Client on this scheme may decide hazard proposals.';

  it('a pending proposal’s allowed_transitions: the Client may decide, any other duty holder is refused by role', async () => {
    const id = await proposeHazard('Overhead cables');
    expect(await transitions(id, 'client')).toEqual([
      { verb: 'accept', allowed: true, reasons: [] },
      { verb: 'reject', allowed: true, reasons: [] },
    ]);
    expect(await transitions(id, 'principalContractor')).toEqual([
      { verb: 'accept', allowed: false, reasons: [clientOnly] },
      { verb: 'reject', allowed: false, reasons: [clientOnly] },
    ]);
    expectForbidden(
      await api.request('POST', `${proposalPath(id)}/accept`, { token: as('designer') }),
      /Only the Client/,
    );
  });

  it('POST …/accept creates the hazard on the pack; POST …/reject needs a reason (400); a decided proposal is 409 STATE.001', async () => {
    const id = await proposeHazard('Deep excavation');
    const noReason = await api.request('POST', `${proposalPath(id)}/reject`, {
      token: as('client'),
      body: { data: { type: 'hazard-proposals', attributes: {} } },
    });
    expect(noReason.status).toBe(400);
    expect(pointers(noReason.body)).toEqual(['/data/attributes/decision_reason']);
    const accepted = await api.request('POST', `${proposalPath(id)}/accept`, { token: as('client') });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.data.attributes).toMatchObject({ status: 'accepted', decision_reason: null });
    const hazardId = accepted.body.data.relationships.site_hazard.data.id;
    const pack = await api.get(`/v3/pre-construction-information/${s.packId}`, as('client'));
    expect(pack.body.data.relationships.site_hazards.data.map((h: { id: string }) => h.id)).toContain(
      hazardId,
    );
    const again = await api.request('POST', `${proposalPath(id)}/reject`, {
      token: as('client'),
      body: { data: { type: 'hazard-proposals', attributes: { decision_reason: 'Too late' } } },
    });
    expect(again.status).toBe(409);
    expect(again.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      meta: { state: 'accepted', verb: 'reject', allowed: [] },
    });
    expect(await transitions(id, 'client')).toEqual([
      { verb: 'accept', allowed: false, reasons: ['A hazard proposal accepted cannot be accepted.'] },
      { verb: 'reject', allowed: false, reasons: ['A hazard proposal accepted cannot be rejected.'] },
    ]);
  });

  it('If-Match on a move: a stale tag is 412 and the proposal stays pending', async () => {
    const id = await proposeHazard('Unexploded ordnance');
    const res = await api.request('POST', `${proposalPath(id)}/reject`, {
      token: as('client'),
      headers: { 'If-Match': '"stale"' },
      body: { data: { type: 'hazard-proposals', attributes: { decision_reason: 'Survey clear' } } },
    });
    expect(res.status).toBe(412);
    expect(res.body.errors[0].code).toBe('PRECONDITION.001');
    expect((await api.get(proposalPath(id), as('client'))).body.data.attributes.status).toBe('pending');
  });
});
