/**
 * `eval "$(npm run -s shell-env)"`: sets the variables the README's examples use, from what `npm start`
 * wrote to `.local/credentials.json`, for the first demo organisation: BASE, ORG_ID, CLIENT_ID and
 * CLIENT_SECRET (its admin client), TOKEN (a fresh access token for that client, valid for an hour),
 * SESSION (its demo user's session token) and ISSUER (the local OpenID provider). Prints `export` lines
 * for any POSIX shell (bash, zsh); exits 2 with one line on stderr when there is nothing to call.
 */
import { demoClientToken, Refusal, readCredentials, runScriptMain } from './demo-credentials';

/** Single-quoted, so no shell reads anything in the value. */
const quoted = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

runScriptMain('shell-env', async () => {
  const credentials = readCredentials();
  const [org] = credentials.organisations;
  if (!org?.id) throw new Refusal('.local/credentials.json names no organisation id: restart npm start.');
  const { client, token } = await demoClientToken(credentials, 'admin');
  const variables = {
    BASE: credentials.base_url,
    ORG_ID: org.id,
    CLIENT_ID: client.client_id,
    CLIENT_SECRET: client.client_secret,
    TOKEN: token,
    ...(org.user && { SESSION: org.user.session_token }),
    ...(credentials.oidc_issuer && { ISSUER: credentials.oidc_issuer }),
  };
  const lines = Object.entries(variables).map(([name, value]) => `export ${name}=${quoted(value)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
});
