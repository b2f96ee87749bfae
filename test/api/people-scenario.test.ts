/**
 * Issue 21's "done when", as an API test: a new person, invited by e-mail by the organisation's
 * administrator, accepts by signing in through the organisation's OpenID provider (the tests' real local
 * provider), sees their grants in GET /v3/whoami, is suspended by the administrator and is refused on
 * the next call. The same walk-through runs against `npm start` as `npm run scenario:people`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runPeopleScenario } from '../scenarios/people';
import { startTestApi, type TestApi } from '../support/api';
import { addAccount, oidcDiscoveryUrl, registerClient } from '../support/identity-provider';
import { mailsTo } from '../support/mailbox';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let adminToken: string;
let oidcIdentifier: string;
const domain = `people-${Date.now().toString(36)}.example`;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('People Scenario Org', 0);
  adminToken = await api.token(tenant.admin);
  const { client_id } = await registerClient({ redirect_uris: [`${api.url}/v3/sso/callback`] });
  const provider = await api.request('POST', '/v3/sso-providers', {
    token: adminToken,
    body: {
      data: {
        type: 'sso-providers',
        attributes: {
          name: 'Workforce IdP',
          metadata: oidcDiscoveryUrl,
          client_id,
          allowed_domains: [domain],
        },
        relationships: { organisation: { data: { type: 'organisations', id: tenant.org.id } } },
      },
    },
  });
  expect(provider.status, provider.text).toBe(201);
  oidcIdentifier = provider.body.data.meta.oidc_identifier;
});
afterAll(() => api.close());

it('invited by e-mail, signs in through SSO with the invitation, sees their grants, is suspended and refused', async () => {
  const steps: string[] = [];
  const result = await runPeopleScenario(
    {
      http: api,
      orgId: tenant.org.id,
      adminToken,
      oidcIdentifier,
      person: { email: `new.starter@${domain}`, given_name: 'New', family_name: 'Starter' },
      addAccount: async (person) => {
        await addAccount(person);
      },
      newestMailTo: async (address) => (await mailsTo(address)).at(-1)?.body.text ?? '',
    },
    (line) => steps.push(line),
  );
  expect(steps).toHaveLength(6);
  expect(result.permissions).toContain('users:self');
  const invitation = await api.get(`/v3/invitations/${result.invitationId}`, adminToken);
  expect(invitation.body.data.attributes.status).toBe('accepted');
  expect(invitation.body.data.relationships.user.data.id).toBe(result.userId);
});
