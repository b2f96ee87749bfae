import { verificationJwks } from '#shared/data/verification-keys';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';

/**
 * GET /.well-known/jwks.json: the public keys that verify access tokens, the ones every function trusts
 * (shipped with the deployment), so a client sees the next key before any token is signed with it.
 */
export const handler = jsonApiHandler(
  'getJwks',
  async () =>
    new Reply(
      200,
      verificationJwks(),
      { 'Cache-Control': 'public, max-age=300' },
      'application/jwk-set+json',
    ),
);
