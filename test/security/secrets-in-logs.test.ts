/** Tokens and secrets never reach the logs, whatever happens to a request. */
import './debug-logging';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { consume, latestEvent, streamRecordOf } from '../support/event-stream';
import { mailsTo } from '../support/mailbox';
import { writtenWhile } from '../support/output';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Logging Org', 1);
});
afterAll(() => api.close());

describe('logs', () => {
  it('hold neither the client secret nor the access token through an exchange, calls and failures', async () => {
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    let token = '';
    try {
      token = await api.token(tenant.admin);
      await api.get(`/v3/orgs/${tenant.org.id}/people/teams?include=members`, token);
      await api.get(`/v3/orgs/${tenant.org.id}/people/teams?include=nope`, token);
      await api.get('/v3/orgs', `${token}x`);
      await api.request('POST', '/oauth2/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=${tenant.admin.clientId}&client_secret=${tenant.admin.clientSecret}x`,
      });
      const account = await api.request('POST', `/v3/orgs/${tenant.org.id}/iam/service-accounts`, {
        token,
        body: { data: { type: 'service-accounts', attributes: { name: 'logged' } } },
      });
      const key = await api.request(
        'POST',
        `/v3/orgs/${tenant.org.id}/iam/service-accounts/${account.body.data.id}/keys`,
        {
          token,
        },
      );
      const log = written.join('');
      // The capture works: the failed include and the bad token were logged.
      expect(log).toContain('"status":400');
      expect(log).toContain('"status":401');
      for (const secret of [tenant.admin.clientSecret, token, key.body.data.attributes.client_secret]) {
        expect(log).not.toContain(secret);
      }
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });

  it('hold no webhook signing secret (issue 18): creation, rotation, delivery, retry and a failed attempt', async () => {
    const { createServer } = await import('node:http');
    const { runDue } = await import('#functions/due-work/run');
    const receiver = createServer((_req, res) => res.writeHead(500).end('no'));
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const { port } = receiver.address() as { port: number };
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const token = await api.token(tenant.admin);
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    try {
      const made = await api.request('POST', `/v3/orgs/${tenant.org.id}/webhook-subscriptions`, {
        token,
        body: {
          data: {
            type: 'webhook-subscriptions',
            attributes: {
              url: `http://127.0.0.1:${port}/in`,
              event_types: ['equipment-manufacturer.created'],
            },
          },
        },
      });
      const rotated = await api.request(
        'POST',
        `/v3/webhook-subscriptions/${made.body.data.id}/rotate-secret`,
        { token },
      );
      await api.request('POST', `/v3/orgs/${tenant.org.id}/assets/equipment-manufacturers`, {
        token,
        body: { data: { type: 'equipment-manufacturers', attributes: { name: 'Logged' } } },
      });
      await consume(streamRecordOf(await latestEvent(tenant.org.id, 'equipment-manufacturer.created')));
      await runDue(Date.now() + 10_000);
      const log = written.join('');
      // The capture works: the attempts were logged.
      expect(log).toContain('"message":"webhook attempt"');
      expect(log).toContain('"status_code":500');
      for (const secret of [made.body.data.attributes.secret, rotated.body.data.attributes.secret]) {
        expect(secret).toMatch(/^whsec_/);
        expect(log).not.toContain(secret);
        expect(log).not.toContain(secret.slice(6));
      }
    } finally {
      out.mockRestore();
      err.mockRestore();
      receiver.close();
    }
  });

  it('hold neither invitation tokens nor session tokens: invited, accepted, refused, logged out (debug level)', async () => {
    const admin = await api.token(tenant.admin);
    const email = `logged.${Date.now()}@logging.example`;
    const { result: token, lines } = await writtenWhile(async () => {
      const invited = await api.request('POST', `/v3/orgs/${tenant.org.id}/people/invitations`, {
        token: admin,
        body: {
          data: {
            type: 'invitations',
            attributes: { email },
            relationships: { roles: { data: [{ type: 'roles', id: 'viewer' }] } },
          },
        },
      });
      expect(invited.status, invited.text).toBe(201);
      const mail = (await mailsTo(email)).at(-1)?.body.text ?? '';
      const invitation = /inv_\S+/.exec(mail)?.[0] ?? '';
      const accept = (value: string) =>
        api.request('POST', '/v3/invitations/accept', {
          body: { data: { type: 'invitation-acceptances', attributes: { token: value } } },
        });
      expect((await accept(`${invitation}x`)).status).toBe(401);
      const accepted = await accept(invitation);
      expect(accepted.status, accepted.text).toBe(200);
      const session = accepted.body.meta.session.token as string;
      const headers = { 'x-session-token': session };
      expect((await api.request('POST', '/v3/sessions/current/logout', { headers })).status).toBe(204);
      expect((await api.request('GET', '/v3/whoami', { headers })).status).toBe(401);
      return { invitation, session };
    });
    const log = JSON.stringify(lines);
    // The capture works: the requests were logged.
    expect(log).toContain('/v3/invitations/accept');
    for (const secret of [token.invitation, token.session]) {
      expect(secret.length).toBeGreaterThan(40);
      expect(log).not.toContain(secret);
      expect(log).not.toContain(secret.slice(-43));
    }
  });

  it('hold no SSO client secret (issue 41): creation, change, a confidential sign-in and one the provider refuses', async () => {
    const { addAccount, loginAt, oidcDiscoveryUrl, registerClient } = await import(
      '../support/identity-provider'
    );
    const secret = `sso-secret-${Math.random().toString(36).slice(2)}-never-logged`;
    const token = await api.token(tenant.admin);
    const domain = `logged-${Date.now().toString(36)}.example`;
    const client = await registerClient({
      client_secret: secret,
      redirect_uris: [`${api.url}/v3/sso/callback`],
    });
    const { lines } = await writtenWhile(async () => {
      const made = await api.request('POST', '/v3/sso-providers', {
        token,
        body: {
          data: {
            type: 'sso-providers',
            attributes: {
              name: 'Logged IdP',
              metadata: oidcDiscoveryUrl,
              client_id: client.client_id,
              client_secret: secret,
              allowed_domains: [domain],
            },
            relationships: { organisation: { data: { type: 'organisations', id: tenant.org.id } } },
          },
        },
      });
      expect(made.status, made.text).toBe(201);
      const { id } = made.body.data;
      const signIn = async () => {
        const authorize = await api.request(
          'GET',
          `/v3/sso/${made.body.data.meta.oidc_identifier}/authorize`,
        );
        const { pathname, search } = new URL(
          await loginAt(
            authorize.headers.get('location') ?? '',
            (await addAccount({ email: `p${Math.random()}@${domain}` })).email,
          ),
        );
        return api.request('GET', `${pathname}${search}`);
      };
      expect((await signIn()).status).toBe(200);
      const patch = (attributes: object) =>
        api.request('PATCH', `/v3/sso-providers/${id}`, {
          token,
          body: { data: { type: 'sso-providers', id, attributes } },
        });
      expect((await patch({ client_secret: `${secret}-wrong` })).status).toBe(200);
      expect((await signIn()).status).toBe(401);
      expect((await patch({ client_secret: ['not', 'a', secret] })).status).toBe(400);
    });
    const log = JSON.stringify(lines);
    // The capture works: the requests were logged.
    expect(log).toContain('/v3/sso/callback');
    expect(log).not.toContain(secret);
  });
});
