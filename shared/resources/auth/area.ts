import { defineArea } from '../area';

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
