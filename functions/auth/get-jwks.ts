import { publishedJwks } from '#shared/auth/issue-access-token';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { Reply } from '#shared/http/reply';

/** GET /.well-known/jwks.json: the public key that verifies access tokens. */
export const handler = jsonApiHandler(
  'getJwks',
  async () =>
    new Reply(
      200,
      await publishedJwks(),
      { 'Cache-Control': 'public, max-age=300' },
      'application/jwk-set+json',
    ),
);
