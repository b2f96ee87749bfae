import { defineArea } from '#shared/engine/area';

export const area = defineArea('auth', {
  tag: 'Authentication',
  resources: [],
  routes: [
    // Writes: failed authentications are counted in the table (shared/auth/token-throttle.ts).
    {
      id: 'issueToken',
      method: 'POST',
      path: '/oauth2/token',
      handler: 'functions/auth/issue-token.ts',
      answers: { status: 200, media: 'application/json' },
      auth: [],
      permission: null,
      access: { table: 'write', signing: true },
      bodyType: 'form',
    },
    {
      // A browser is sent here to sign in through its organisation's provider: 303 to the provider.
      id: 'beginSsoLogin',
      method: 'GET',
      path: '/v3/sso/{oidc_identifier}/authorize',
      handler: 'functions/auth/sso-authorize.ts',
      tag: 'SSO Providers',
      answers: { status: 303 },
      auth: [],
      permission: null,
      access: { table: 'write' },
      query: ['invitation', 'return_to'],
      // 401: a bad invitation token, or a provider answering wrong; 503: a provider out of reach.
      errors: [401, 409, 503],
    },
    {
      // The provider sends the browser back here: the session starts (cookie, and token in meta.session),
      // or, for a sign-in begun with return_to, a 303 there with the cookie.
      id: 'finishSsoLogin',
      method: 'GET',
      path: '/v3/sso/callback',
      handler: 'functions/auth/sso-callback.ts',
      tag: 'SSO Providers',
      answers: { status: 200, resource: 'users', redirects: true },
      auth: [],
      permission: null,
      // Decrypting a confidential client's secret for the token exchange; nothing else reads it.
      access: { table: 'write', ssoClientSecrets: 'decrypt' },
      errors: [401, 403, 409, 503],
    },
    {
      id: 'endSession',
      method: 'POST',
      path: '/v3/sessions/current/logout',
      handler: 'functions/auth/logout.ts',
      answers: { status: 204 },
      auth: ['Session', 'Cookie'],
      permission: 'authenticated',
    },
    {
      id: 'getJwks',
      method: 'GET',
      path: '/.well-known/jwks.json',
      handler: 'functions/auth/get-jwks.ts',
      answers: { status: 200, media: 'application/jwk-set+json' },
      auth: [],
      permission: null,
      access: { signing: true },
      query: [],
    },
  ],
});
