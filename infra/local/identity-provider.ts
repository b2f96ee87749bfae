/**
 * The local OpenID provider: a real `oidc-provider` (v9) on a loopback port over plain http, standing in
 * for an organisation's identity provider in `npm start` and the API tests. It serves discovery, JWKS,
 * the authorization and token endpoints as any OpenID provider does; what is local is only:
 *
 * - accounts: demo people given at start and any added later (`addAccount`), found by `sub`, signed in
 *   by e-mail;
 * - clients: given at start or registered later (`registerClient`): authorization code with PKCE (S256),
 *   public (`none`) or with a secret (`client_secret_basic`, or `client_secret_post`);
 * - the login step: `GET /interaction/{uid}` is a form with one e-mail field and no password (the
 *   demo's accounts have none); its POST signs that account in. Consent is granted without a page
 *   (`loadExistingGrant` below), so a test drives a whole login with plain HTTP
 *   (test/support/identity-provider.ts);
 * - `POST /admin/accounts` and `POST /admin/clients` (JSON bodies as `addAccount` and `registerClient`
 *   take): the provider lives in the process that started it (the tests' global setup), and test files
 *   run in other processes, so they add their users and clients over HTTP. Only JSON is accepted, which
 *   a web page cannot post to another origin without a CORS preflight this server never answers.
 *
 * Plain http on loopback needs no switch in oidc-provider: it marks cookies `Secure` only on https, and
 * web clients may register http redirect URIs for the code flow. The relying party must allow it
 * (SSO_ALLOW_LOOPBACK_HTTP).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Adapter, type ClientMetadata, type Configuration } from 'oidc-provider';
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';
import type { Engine } from './engines';

export interface IdentityProviderAccount {
  /** The provider's subject identifier: opaque, never the API's own user id. */
  sub: string;
  email: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

export interface IdentityProviderClient {
  client_id: string;
  /** Without a secret the client is public (`none`) and PKCE is its only proof. */
  client_secret?: string;
  redirect_uris: string[];
  /** With a secret: how the client authenticates at the token endpoint (default `client_secret_basic`). */
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post';
}

export interface IdentityProviderOptions {
  accounts?: IdentityProviderAccount[];
  clients?: IdentityProviderClient[];
}

export interface IdentityProvider extends Engine {
  /** The issuer identifier; discovery is at `${issuer}/.well-known/openid-configuration`. */
  issuer: string;
  addAccount(account: IdentityProviderAccount): void;
  registerClient(client: IdentityProviderClient): Promise<void>;
}

const SCOPES = 'openid email profile';

/** Short-lived state (sessions, interactions, codes, grants) in oidc-provider's own memory store; clients
 * in a map of ours, since that store is a bounded LRU that would in time forget a registered client. */
const adapterFor = (clients: Map<string, ClientMetadata>) => {
  const memory = createMemoryAdapter();
  const clientStore: Adapter = {
    upsert: async (id, payload) => void clients.set(id, payload as ClientMetadata),
    find: async (id) => clients.get(id),
    destroy: async (id) => void clients.delete(id),
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    consume: async () => undefined,
    revokeByGrantId: async () => undefined,
  };
  return (model: string): Adapter => (model === 'Client' ? clientStore : memory(model));
};

const clientMetadata = (client: IdentityProviderClient): ClientMetadata => ({
  client_id: client.client_id,
  redirect_uris: client.redirect_uris,
  grant_types: ['authorization_code'],
  response_types: ['code'],
  ...(client.client_secret === undefined
    ? { token_endpoint_auth_method: 'none' }
    : {
        client_secret: client.client_secret,
        token_endpoint_auth_method: client.token_endpoint_auth_method ?? 'client_secret_basic',
      }),
});

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const loginPage = (uid: string, problem?: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head>
<body>
<h1>Sign in to the local identity provider</h1>
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/interaction/${encodeURIComponent(uid)}">
<label>E-mail <input type="email" name="email" autocomplete="username" required autofocus></label>
<button type="submit">Sign in</button>
</form>
<p>Local demo provider: no password; the e-mail of any account it knows signs in.</p>
</body></html>`;

const readBody = async (req: IncomingMessage, limit = 64 * 1024): Promise<string> => {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > limit) throw new Error('body too large');
  }
  return body;
};

const send = (res: ServerResponse, status: number, type: string, body: string) => {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  res.end(body);
};

export const startIdentityProvider = async (
  options: IdentityProviderOptions = {},
): Promise<IdentityProvider> => {
  const accounts = new Map<string, IdentityProviderAccount>();
  const subjectByEmail = new Map<string, string>();
  const addAccount = (account: IdentityProviderAccount) => {
    accounts.set(account.sub, account);
    subjectByEmail.set(account.email.toLowerCase(), account.sub);
  };
  for (const account of options.accounts ?? []) addAccount(account);

  // The issuer names the port, so the server listens before the provider exists.
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the identity provider has no address');
  const issuer = `http://127.0.0.1:${address.port}`;

  // A signing key of its own each start (oidc-provider would otherwise sign with a published dev key).
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: randomBytes(8).toString('hex'), use: 'sig' };

  const clients = new Map<string, ClientMetadata>();
  const configuration: Configuration = {
    adapter: adapterFor(clients),
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      return account && { accountId: sub, claims: () => ({ ...account }) };
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name'],
    },
    // Scope claims (e-mail, names) in the ID token itself, so a relying party needs no userinfo call.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    pkce: { required: () => true },
    // Given, rather than left to the library's placeholders (which say so on every first use).
    ttl: {
      AuthorizationCode: 60,
      IdToken: 3600,
      AccessToken: 600,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
    },
    // Our own login page (below) instead of the library's development views.
    features: { devInteractions: { enabled: false } },
    // Consent without a page: the grant the session already holds, or a new one for every scope the
    // provider has (the client still receives only what it asked for).
    loadExistingGrant: async (ctx) => {
      const { client, session, result, provider } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return provider.Grant.find(grantId);
      const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(SCOPES);
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);

  const registerClient = async (client: IdentityProviderClient) => {
    const metadata = clientMetadata(client);
    await provider.Client.validate(metadata);
    clients.set(client.client_id, metadata);
  };
  for (const client of options.clients ?? []) await registerClient(client);

  const interaction = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name !== 'login') {
      return send(res, 400, 'text/plain', `This provider has no "${details.prompt.name}" step.`);
    }
    if (req.method === 'GET') return send(res, 200, 'text/html', loginPage(details.uid));
    if (req.method !== 'POST') return send(res, 405, 'text/plain', 'GET or POST.');
    const email = new URLSearchParams(await readBody(req)).get('email') ?? '';
    const sub = subjectByEmail.get(email.trim().toLowerCase());
    if (!sub) return send(res, 401, 'text/html', loginPage(details.uid, `No account for ${email}.`));
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: sub } },
      { mergeWithLastSubmission: false },
    );
  };

  const admin = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (req.method !== 'POST' || !req.headers['content-type']?.startsWith('application/json')) {
      return send(res, 415, 'text/plain', 'POST a JSON body.');
    }
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    if (path === '/admin/accounts' && typeof body.sub === 'string' && typeof body.email === 'string') {
      addAccount(body as unknown as IdentityProviderAccount);
      return send(res, 201, 'application/json', JSON.stringify(body));
    }
    if (
      path === '/admin/clients' &&
      typeof body.client_id === 'string' &&
      Array.isArray(body.redirect_uris)
    ) {
      await registerClient(body as unknown as IdentityProviderClient);
      return send(res, 201, 'application/json', JSON.stringify(body));
    }
    return send(
      res,
      400,
      'text/plain',
      'An account needs sub and email; a client client_id and redirect_uris.',
    );
  };

  const oidc = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    const handled = path.startsWith('/interaction/')
      ? interaction(req, res)
      : path.startsWith('/admin/')
        ? admin(req, res, path)
        : null;
    if (!handled) return oidc(req, res);
    handled.catch((error: unknown) => {
      if (res.headersSent) return res.end();
      // A missing or expired interaction cookie, invalid client metadata, unreadable JSON: the caller's.
      send(res, 400, 'text/plain', error instanceof Error ? error.message : String(error));
    });
  });

  return {
    endpoint: issuer,
    issuer,
    addAccount,
    registerClient,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};
