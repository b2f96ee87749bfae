/**
 * The CDM 2015 walk-through, through the public API only: a scheme's duty holders are appointed, the
 * Client writes the pre-construction information with its site hazards, the owning roles write the
 * construction phase plan section by section, the Principal Contractor hands it over, proposes a new
 * risk together with a new hazard, the Client accepts it, and a Client proposal is rejected.
 *
 * The API tests run it against the local adapter; `npm run scenario:cdm` runs it against `npm start`
 * with the demo organisation's admin credentials. Every step checks its answer and says what it did.
 */
import assert from 'node:assert/strict';

export interface Http {
  request(
    method: string,
    path: string,
    options?: { token?: string; body?: object | string; headers?: Record<string, string> },
  ): Promise<{ status: number; text: string; body: unknown; headers: { get(name: string): string | null } }>;
}

export const dutyParties = [
  'client',
  'principalDesigner',
  'principalContractor',
  'designer',
  'contractor',
] as const;
export type Party = (typeof dutyParties)[number] | 'outsider';

export interface ScenarioResult {
  orgId: string;
  schemeId: string;
  packId: string;
  planId: string;
  tokens: Record<Party, string>;
  principals: Record<Party, string>;
  hazards: Record<'excavation' | 'overheadLines' | 'asbestos', string>;
  risks: string[];
  acceptedChange: string;
  rejectedChange: string;
}

// biome-ignore lint/suspicious/noExplicitAny: the scenario reads arbitrary members of response documents
type Doc = any;

const section = (text: string, items?: string[]) => ({ text, ...(items && { items }) });

export const runCdmScenario = async (
  http: Http,
  orgId: string,
  adminToken: string,
  log: (line: string) => void = () => {},
): Promise<ScenarioResult> => {
  const call = async (method: string, path: string, token: string, body?: object, expected = 200) => {
    const res = await http.request(method, path, { token, ...(body && { body }) });
    assert.equal(res.status, expected, `${method} ${path}: ${res.text}`);
    return res.body as Doc;
  };
  const org = `/v3/orgs/${orgId}`;

  // Five duty holders and one outsider, each a service account with the admin role in the organisation:
  // the route permission lets each of them try; the duty-holder role decides what they may write.
  const tokens = {} as Record<Party, string>;
  const principals = {} as Record<Party, string>;
  for (const party of [...dutyParties, 'outsider'] as const) {
    const account = await call(
      'POST',
      `${org}/iam/service-accounts`,
      adminToken,
      {
        data: {
          type: 'service-accounts',
          attributes: { name: `CDM ${party}`, description: 'CDM scenario', enabled: true },
        },
      },
      201,
    );
    const key = await call(
      'POST',
      `${org}/iam/service-accounts/${account.data.id}/keys`,
      adminToken,
      {},
      201,
    );
    await call(
      'POST',
      `${org}/iam/grants`,
      adminToken,
      {
        data: {
          type: 'grants',
          relationships: {
            role: { data: { type: 'roles', id: 'admin' } },
            service_account: { data: { type: 'service-accounts', id: account.data.id } },
          },
        },
      },
      201,
    );
    const token = await http.request('POST', '/oauth2/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: key.data.attributes.client_id,
        client_secret: key.data.attributes.client_secret,
      }).toString(),
    });
    assert.equal(token.status, 200, token.text);
    tokens[party] = (token.body as Doc).access_token;
    principals[party] = account.data.id;
  }
  log(
    'service accounts for Client, Principal Designer, Principal Contractor, Designer, Contractor and an outsider',
  );

  const contract = await call(
    'POST',
    `${org}/projects/scheme-contracts`,
    adminToken,
    {
      data: { type: 'scheme-contracts', attributes: { name: 'CDM scenario region' } },
    },
    201,
  );
  const scheme = await call(
    'POST',
    `${org}/projects/schemes`,
    adminToken,
    {
      data: {
        type: 'schemes',
        attributes: { name: 'Reservoir outlet works', code: `CDM-${Date.now().toString(36)}` },
        relationships: { contracts: { data: [{ type: 'scheme-contracts', id: contract.data.id }] } },
      },
    },
    201,
  );
  const schemeId: string = scheme.data.id;
  const schemePath = `${org}/projects/schemes/${schemeId}`;

  const appoint = (token: string, role: string, party: Party) =>
    call(
      'POST',
      `${schemePath}/appointments`,
      token,
      {
        data: {
          type: 'appointments',
          attributes: { role },
          relationships: { service_account: { data: { type: 'service-accounts', id: principals[party] } } },
        },
      },
      201,
    );
  await appoint(adminToken, 'client', 'client');
  await appoint(tokens.client, 'principal_designer', 'principalDesigner');
  await appoint(tokens.client, 'principal_contractor', 'principalContractor');
  await appoint(tokens.client, 'designer', 'designer');
  await appoint(tokens.client, 'contractor', 'contractor');
  log(`scheme ${schemeId}: Client appointed, then the Client appointed the other four duty holders`);

  const pack = await call(
    'POST',
    `${schemePath}/pre-construction-information`,
    tokens.client,
    {
      data: {
        type: 'pre-construction-information',
        attributes: {
          sections: {
            project_description: section('Replace the reservoir outlet valve and 60 m of 600 mm main.'),
            client_brief: section('Work in the dry season; the reservoir stays in service.', [
              'Permit to dig required',
            ]),
            existing_information: section('As-built drawings 1987; asbestos survey 2019.'),
            environmental_restrictions: section('Nesting birds March to August along the dam crest.'),
          },
        },
      },
    },
    201,
  );
  const packId: string = pack.data.id;
  const packPath = `/v3/pre-construction-information/${packId}`;
  await call('PATCH', packPath, tokens.principalDesigner, {
    data: {
      type: 'pre-construction-information',
      id: packId,
      attributes: {
        sections: {
          significant_design_hazards: section('Deep excavation beside a live 33 kV overhead line.'),
          health_and_safety_file: section(
            'The file is kept by the Principal Designer and handed to the Client.',
          ),
        },
      },
    },
  });
  await call('PATCH', packPath, tokens.designer, {
    data: {
      type: 'pre-construction-information',
      id: packId,
      attributes: {
        sections: { design_information: section('Valve chamber design, drawing VC-101 rev C.') },
      },
    },
  });
  const hazard = async (title: string, severity: string) =>
    (
      await call(
        'POST',
        `${packPath}/site-hazards`,
        tokens.client,
        {
          data: { type: 'site-hazards', attributes: { title, severity, location: 'Outlet tower' } },
        },
        201,
      )
    ).data.id as string;
  const hazards = {
    excavation: await hazard('Excavation deeper than 1.2 m', 'high'),
    overheadLines: await hazard('33 kV overhead line across the access road', 'high'),
    asbestos: await hazard('Asbestos cement pipe offcuts in the chamber', 'medium'),
  };
  await call('PATCH', `/v3/site-hazards/${hazards.asbestos}`, tokens.client, {
    data: {
      type: 'site-hazards',
      id: hazards.asbestos,
      attributes: { status: 'retired', retired_reason: 'Removed by licensed contractor' },
    },
  });
  log(
    `pre-construction information ${packId}: sections by Client, Principal Designer and Designer; 3 site hazards, 1 retired`,
  );

  const plan = await call(
    'POST',
    `${schemePath}/construction-phase-plan`,
    tokens.principalContractor,
    {
      data: {
        type: 'construction-phase-plans',
        attributes: {
          sections: {
            health_and_safety_aims: section('No one harmed; no reservoir pollution.'),
            site_rules: section('Hard hats, boots, hi-vis; no lone working in chambers.', [
              'Permit to dig',
              'Goalposts under the line',
            ]),
          },
        },
      },
    },
    201,
  );
  const planId: string = plan.data.id;
  const planPath = `/v3/construction-phase-plans/${planId}`;
  const writeSections = (token: string, sections: object) =>
    call('PATCH', planPath, token, {
      data: { type: 'construction-phase-plans', id: planId, attributes: { sections } },
    });
  await writeSections(tokens.principalContractor, {
    induction: section('Site induction for everyone on day one, refreshed monthly.'),
    welfare: section('Welfare cabin with drying room at the dam car park.'),
    emergency_arrangements: section('Rescue plan for confined spaces; first aiders on every shift.'),
    monitoring_and_review: section('Weekly inspection by the site manager; monthly review with the Client.'),
    key_operatives: section('Site manager, appointed person (lifting), confined-space supervisor.'),
  });
  await writeSections(tokens.client, {
    client_checklist: section('Welfare, PCI, appointments and notification (F10) checked.'),
  });
  const risk = async (hazardId: string, title: string) =>
    (
      await call(
        'POST',
        `${planPath}/risks`,
        tokens.principalContractor,
        {
          data: {
            type: 'construction-phase-plan-risks',
            attributes: {
              title,
              control_measures: ['Method statement reviewed', 'Supervised'],
              residual_risk: 'low',
            },
            relationships: { hazard: { data: { type: 'site-hazards', id: hazardId } } },
          },
        },
        201,
      )
    ).data.id as string;
  const risks = [
    await risk(hazards.excavation, 'Trench support and edge protection'),
    await risk(hazards.overheadLines, 'Goalposts and a banksman for plant under the line'),
  ];
  // A duplicate drafted, revised, then withdrawn: a draft plan's risks change freely until handover.
  const duplicate = await risk(hazards.excavation, 'Trench support (draft)');
  const riskPath = `/v3/construction-phase-plan-risks/${duplicate}`;
  await call('PATCH', riskPath, tokens.principalContractor, {
    data: { type: 'construction-phase-plan-risks', id: duplicate, attributes: { residual_risk: 'medium' } },
  });
  await call('DELETE', riskPath, tokens.principalContractor, undefined, 204);
  log(`construction phase plan ${planId}: 8 sections by their owners, 2 risks against the active hazards`);

  const handedOver = await call('POST', `${planPath}/handover`, tokens.principalContractor);
  assert.equal(handedOver.data.attributes.status, 'handed_over');
  log(`plan handed over at version ${handedOver.data.meta.version}`);

  // After handover: the Contractor proposes a new hazard; the Principal Contractor proposes a risk that
  // controls it; the Client accepts, which accepts the hazard proposal in the same transaction.
  const hazardProposal = await call(
    'POST',
    `${packPath}/hazard-proposals`,
    tokens.contractor,
    {
      data: {
        type: 'hazard-proposals',
        attributes: {
          title: 'Silt in the outlet channel',
          severity: 'medium',
          reason: 'Found on the first dive survey',
        },
      },
    },
    201,
  );
  const proposal = await call('POST', `${planPath}/proposed-changes`, tokens.principalContractor, {
    data: {
      type: 'construction-phase-plan-proposed-changes',
      attributes: {
        reason: 'Control the silt hazard found on the dive survey',
        section: 'risks',
        operation: 'create',
        proposed: {
          risk: {
            title: 'Silt removal by suction',
            control_measures: ['Diver tethered', 'Silt curtain'],
            residual_risk: 'medium',
          },
        },
      },
      relationships: { hazard_proposal: { data: { type: 'hazard-proposals', id: hazardProposal.data.id } } },
    },
  });
  assert.equal(proposal.data.attributes.status, 'pending');
  const accepted = await call(
    'PATCH',
    `/v3/construction-phase-plan-proposed-changes/${proposal.data.id}`,
    tokens.client,
    {
      data: {
        type: 'construction-phase-plan-proposed-changes',
        id: proposal.data.id,
        attributes: { status: 'accepted' },
      },
    },
  );
  assert.equal(accepted.data.attributes.status, 'accepted');
  log(`Principal Contractor proposed a risk with a new hazard (${proposal.data.id}); the Client accepted it`);

  const clientProposal = await call('POST', `${planPath}/proposed-changes`, tokens.client, {
    data: {
      type: 'construction-phase-plan-proposed-changes',
      attributes: {
        reason: 'Ask for a second welfare cabin',
        section: 'welfare',
        operation: 'replace',
        proposed: { welfare: section('Two welfare cabins, one at each end of the dam.') },
      },
    },
  });
  const rejected = await call(
    'PATCH',
    `/v3/construction-phase-plan-proposed-changes/${clientProposal.data.id}`,
    tokens.principalContractor,
    {
      data: {
        type: 'construction-phase-plan-proposed-changes',
        id: clientProposal.data.id,
        attributes: {
          status: 'rejected',
          decision_reason: 'The dam crest road is single track; one cabin serves both ends.',
        },
      },
    },
  );
  assert.equal(rejected.data.attributes.status, 'rejected');
  log(
    `the Client proposed a welfare change (${clientProposal.data.id}); the Principal Contractor rejected it`,
  );

  return {
    orgId,
    schemeId,
    packId,
    planId,
    tokens,
    principals,
    hazards,
    risks,
    acceptedChange: proposal.data.id,
    rejectedChange: clientProposal.data.id,
  };
};
