/**
 * The demo data set `npm start` loads on every start: made-up but realistic organisations, people,
 * teams and feature configurations, and the service-account clients whose credentials are printed.
 * Tests never depend on it; they build their own records.
 */

import { startSession } from '#shared/auth/sessions';
import { loadDemoActions } from './demo-actions';
import { loadDemoAssets } from './demo-assets';
import { loadDemoCosts } from './demo-costs';
import { loadDemoImages } from './demo-images';
import { loadDemoNotice } from './demo-notices';
import { loadDemoNotifications } from './demo-notifications';
import { loadDemoSites } from './demo-sites';
import {
  type ClientCredentials,
  createFeatureConfiguration,
  createOrganisation,
  createServiceAccountClient,
  createSsoProvider,
  createTeam,
  createUser,
  grantRole,
  type UserProfile,
} from './records';

interface DemoOrganisation {
  name: string;
  slug: string;
  description: string;
  town: string;
  domain: string;
  centre: { latitude: number; longitude: number };
  prefix: string;
  people: [string, string, string][];
  teams: { name: string; description: string; members: number[] }[];
  viewer: boolean;
}

const demo: DemoOrganisation[] = [
  {
    name: 'Northmere Water Services',
    slug: 'northmere-water',
    description: 'Regional water and wastewater utility: mains renewal, reservoirs and treatment works.',
    town: 'Kendal',
    centre: { latitude: 54.328, longitude: -2.7463 },
    prefix: 'NW',
    domain: 'northmere-water.example',
    people: [
      ['Aisha', 'Rahman', 'Principal Designer'],
      ['Tom', 'Whitfield', 'Site Manager'],
      ['Gwen', 'Pryce', 'Health and Safety Advisor'],
      ['Callum', 'Reid', 'Plant Operator'],
      ['Nadia', 'Kowalski', 'Civil Engineer'],
      ['Owen', 'Fairbairn', 'Street Works Coordinator'],
    ],
    teams: [
      {
        name: 'Mains Renewal North',
        description: 'Trunk main replacement gangs, Lakes area.',
        members: [1, 3, 5],
      },
      { name: 'Reservoir Safety', description: 'Inspections under the Reservoirs Act.', members: [0, 4] },
      { name: 'SHEQ', description: 'Safety, health, environment and quality.', members: [2] },
    ],
    viewer: true,
  },
  {
    name: 'Kestrel Civil Engineering',
    slug: 'kestrel-civils',
    description: 'Principal contractor for highways, bridges and onshore wind access roads.',
    town: 'Stirling',
    centre: { latitude: 56.1165, longitude: -3.9369 },
    prefix: 'KC',
    domain: 'kestrel-civils.example',
    people: [
      ['Morag', 'Sinclair', 'Contracts Manager'],
      ['Dev', 'Patel', 'Temporary Works Coordinator'],
      ['Ellie', 'Brannigan', 'Site Engineer'],
      ['Jonah', 'Mensah', 'Traffic Management Operative'],
    ],
    teams: [
      { name: 'Bridges', description: 'Structures inspection and repair.', members: [0, 2] },
      { name: 'Wind Farm Access', description: 'Access tracks and turbine bases.', members: [1, 3] },
    ],
    viewer: false,
  },
];

const features = [
  { name: 'Construction phase plans', domain: 'cdm', component: 'construction-phase-plans', enabled: true },
  {
    name: 'Pre-construction information',
    domain: 'cdm',
    component: 'pre-construction-information',
    enabled: true,
  },
  {
    name: 'Vehicle inventory checks',
    domain: 'assets',
    component: 'vehicle-inventory-checks',
    enabled: true,
  },
  { name: 'Street works permits', domain: 'permits', component: 'street-works', enabled: true },
  { name: 'Cost register', domain: 'costs', component: 'cost-rollups', enabled: false },
  { name: 'AI briefings', domain: 'agents', component: 'briefings', enabled: false },
];

export interface DemoCredentials {
  organisations: {
    id: string;
    name: string;
    clients: { client_id: string; client_secret: string; role: 'admin' | 'viewer' }[];
    /** A scheme contract with cost sheets beneath it, for GET /v3/cost-rollups. */
    costed_contract: string;
    /** An administrator user with a session, for the Session (X-Session-Token) and Cookie schemes. */
    user?: { id: string; email: string; session_token: string };
    /** Its people's e-mail domain: the one its SSO provider lets sign in. */
    domain: string;
    /** Its SSO provider (the local OpenID provider), and where a browser starts signing in. */
    sso?: { oidc_identifier: string; login_url: string };
  }[];
}

/** The local OpenID provider, as the demo organisations' SSO provider: its discovery URL and our client there. */
export interface DemoIdentityProvider {
  discoveryUrl: string;
  clientId: string;
  /** The API's base URL, for the printed login URLs. */
  baseUrl: string;
}

const demoEmail = (first: string, last: string, domain: string) => `${first}.${last}@${domain}`.toLowerCase();

/** Every demo person, as the local OpenID provider's accounts know them: they sign in there by e-mail. */
export const demoPeople = (): { email: string; given_name: string; family_name: string }[] =>
  demo.flatMap((o) =>
    o.people.map(([first, last]) => ({
      email: demoEmail(first, last, o.domain),
      given_name: first,
      family_name: last,
    })),
  );

const asClient = (c: ClientCredentials, role: 'admin' | 'viewer') => ({
  client_id: c.clientId,
  client_secret: c.clientSecret,
  role,
});

export const loadDemoData = async (idp?: DemoIdentityProvider): Promise<DemoCredentials> => {
  const loaded: DemoCredentials['organisations'] = [];
  for (const o of demo) {
    const org = await createOrganisation({ name: o.name, slug: o.slug, description: o.description });
    const people = await Promise.all(
      o.people.map(([first, last, occupation], i) => {
        const profile: UserProfile = {
          email: demoEmail(first, last, o.domain),
          first_name: first,
          last_name: last,
          occupation,
          mobile: `07700 900${String(100 + i).padStart(3, '0')}`,
          town: o.town,
        };
        return createUser(org.id, profile);
      }),
    );
    // One at a time: each team's transaction also appends to its members' `teams` lists.
    let leadsTeam: string | undefined;
    for (const t of o.teams) {
      const team = await createTeam(org.id, {
        ...t,
        memberIds: t.members.flatMap((m) => people[m]?.id ?? []),
      });
      await grantRole(org.id, 'viewer', 'team', team.id);
      if (t.members.includes(0)) leadsTeam ??= team.id;
    }
    const [lead] = people;
    if (lead) await grantRole(org.id, 'admin', 'user', lead.id);
    await Promise.all(features.map((f) => createFeatureConfiguration(org.id, f)));
    await loadDemoAssets(org.id, o.centre, o.prefix);
    await loadDemoImages(org.id, o.centre);
    const costedContract = await loadDemoCosts(org.id, o.prefix);
    const subjects = await loadDemoSites(org.id, o.prefix, people);
    if (lead && leadsTeam) {
      const notice = await loadDemoNotice(org.id, lead, leadsTeam);
      await loadDemoNotifications(org.id, people, lead, subjects, notice);
      await loadDemoActions(org.id, people, leadsTeam);
    }
    const admin = await createServiceAccountClient(`${o.name} integration (admin)`, [
      { org_id: org.id, role: 'admin' },
    ]);
    const clients = [asClient(admin, 'admin')];
    if (o.viewer) {
      const viewer = await createServiceAccountClient(`${o.name} reporting (viewer)`, [
        { org_id: org.id, role: 'viewer' },
      ]);
      clients.push(asClient(viewer, 'viewer'));
    }
    const session = lead ? await startSession(lead.id) : null;
    const provider =
      idp &&
      (await createSsoProvider(org.id, {
        name: 'Local OpenID provider',
        metadata: idp.discoveryUrl,
        clientId: idp.clientId,
        allowedDomains: [o.domain],
      }));
    const identifier = String(provider?.meta.oidc_identifier ?? '');
    loaded.push({
      id: org.id,
      name: o.name,
      clients,
      costed_contract: costedContract,
      domain: o.domain,
      ...(idp && {
        sso: { oidc_identifier: identifier, login_url: `${idp.baseUrl}/v3/sso/${identifier}/authorize` },
      }),
      ...(lead &&
        session && {
          user: { id: lead.id, email: String(lead.attributes.email), session_token: session.token },
        }),
    });
  }
  return { organisations: loaded };
};
