/**
 * `npm run scenario:people`: issue 21's walk-through against a running `npm start`: the first demo
 * organisation's admin client invites a new person, who signs in through the local OpenID provider
 * with the invitation, sees their grants, and is suspended. Mail is read from the SES emulator.
 */
import { randomBytes } from 'node:crypto';
import { credentials, firstOrganisationAdmin, http } from './local';
import { runPeopleScenario } from './people';

const { org, adminToken } = await firstOrganisationAdmin();
const { ses_url: ses, oidc_issuer: issuer } = credentials;
if (!org.sso || !org.domain || !ses || !issuer)
  throw new Error(
    '.local/credentials.json names no SSO provider, SES emulator or OpenID provider: restart npm start.',
  );
const suffix = randomBytes(3).toString('hex');
process.stdout.write(`People walk-through in ${org.name} (${org.id}) at ${credentials.base_url}\n`);
const result = await runPeopleScenario(
  {
    http,
    orgId: org.id,
    adminToken,
    oidcIdentifier: org.sso.oidc_identifier,
    person: {
      email: `new.starter.${suffix}@${org.domain}`,
      given_name: 'New',
      family_name: `Starter ${suffix}`,
    },
    addAccount: async (person) => {
      const res = await fetch(`${issuer}/admin/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sub: `new-starter-${suffix}`, email_verified: true, ...person }),
      });
      if (res.status !== 201) throw new Error(`the provider refused the account: ${res.status}`);
    },
    newestMailTo: async (address) => {
      const { emails } = (await (await fetch(`${ses}/store`)).json()) as {
        emails: { destination: { to: string[] }; body: { text?: string } }[];
      };
      return emails.filter((m) => m.destination.to.includes(address)).at(-1)?.body.text ?? '';
    },
  },
  (line) => process.stdout.write(`  ✓ ${line}\n`),
);
process.stdout.write(`Done. User ${result.userId}, invitation ${result.invitationId}.\n`);
