/**
 * `npm start`: the whole API on this machine. DynamoDB Local, s3rver, the SES emulator and an OpenID
 * provider whose accounts are the demo people, the table and buckets from the definitions the CDK stack
 * uses, the demo data, and the local API Gateway adapter on 127.0.0.1:$PORT,
 * reloaded in a fresh process whenever a source file changes (`hot-api.ts`) while the engines and their
 * data stay up. Ctrl-C stops every child process.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { localDynamoDbClient, localS3Client } from './clients';
import { startDynamoDbLocal, startS3rver, startSesLocal } from './engines';
import { startEventStream } from './event-stream';
import { startHotApi } from './hot-api';
import { startIdentityProvider } from './identity-provider';
import { ensureKeyFile } from './key-file';
import { startLambdaEndpoint } from './lambda-endpoint';
import { createBuckets, createTable } from './provision';
import { ensureSigningKeyFile } from './signing-key-file';

const root = resolve(import.meta.dirname, '../..');
const localDir = resolve(root, '.local');
const port = Number(process.env.PORT ?? 3000);
const baseUrl = `http://127.0.0.1:${port}`;
const tableName = 'compliance-local';
const buckets = {
  deviceBackups: 'device-backups-local',
  exports: 'exports-local',
  documents: 'documents-local',
  images: 'images-local',
};

const log = (line: string) => process.stdout.write(`${new Date().toTimeString().slice(0, 8)} ${line}\n`);

const stops: (() => Promise<void>)[] = [];
const stopAll = async () => {
  await Promise.allSettled(stops.reverse().map((stop) => stop()));
};

/** Whether this process could listen on the port: checked before anything starts, not 30 s later. */
const portIsFree = (port: number, host: string) =>
  new Promise<boolean>((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, host, () => server.close(() => done(true)));
  });

const main = async () => {
  if (!(await portIsFree(port, '127.0.0.1')))
    throw new Error(
      `Port ${port} on 127.0.0.1 is taken (another npm start?): stop it, or choose another port, e.g. PORT=${port + 1} npm start`,
    );
  const dynamo = await startDynamoDbLocal();
  stops.push(dynamo.stop);
  const s3 = await startS3rver();
  stops.push(s3.stop);
  const ses = await startSesLocal();
  stops.push(ses.stop);
  // Each demo organisation's SSO provider (below): the demo people sign in there by e-mail.
  const idp = await startIdentityProvider();
  stops.push(idp.stop);
  // The job worker runs as Lambda runs it: invoked asynchronously, each invocation a process of its own
  // (with this process's environment, set below).
  const lambda = await startLambdaEndpoint({ env: process.env, log });
  stops.unshift(lambda.stop);

  // Configuration is read once, when the first module that needs it loads: set it before any import. The
  // adapter's process gets the same.
  const env = {
    STAGE: 'local',
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    S3_ENDPOINT: s3.endpoint,
    SES_ENDPOINT: ses.endpoint,
    TABLE_NAME: tableName,
    DEVICE_BACKUPS_BUCKET: buckets.deviceBackups,
    EXPORTS_BUCKET: buckets.exports,
    DOCUMENTS_BUCKET: buckets.documents,
    IMAGES_BUCKET: buckets.images,
    TOKEN_ISSUER: baseUrl,
    TOKEN_AUDIENCE: 'compliance-api:local',
    LOCAL_SIGNING_KEY_FILE: ensureSigningKeyFile(resolve(localDir, 'signing-key.pem')),
    LOCAL_WEBHOOK_SECRETS_KEY_FILE: ensureKeyFile(resolve(localDir, 'webhook-secrets.key')),
    LOCAL_SSO_CLIENT_SECRETS_KEY_FILE: ensureKeyFile(resolve(localDir, 'sso-client-secrets.key')),
    LOCAL_CURSOR_KEY_FILE: ensureKeyFile(resolve(localDir, 'cursor.key')),
    // Webhooks to a receiver on this machine (http://127.0.0.1:…); never set in AWS.
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    // SSO through the local OpenID provider, which is plain http on loopback; never set in AWS.
    SSO_ALLOW_LOOPBACK_HTTP: 'true',
    LAMBDA_ENDPOINT: lambda.endpoint,
  };
  Object.assign(process.env, env);
  await createTable(localDynamoDbClient(dynamo.endpoint, tableName), tableName);
  // A new table is at the schema version of the code (there is nothing to carry over), as a deployed
  // table is once the deploy's migrations have run; `npm run migrate` runs any added since.
  await (await import('../../functions/migrations/run')).migrate();
  await createBuckets(localS3Client(s3.endpoint), Object.values(buckets));

  const { demoPeople, loadDemoData } = await import('./demo-data');
  // The API is the provider's one client (public, PKCE): each demo organisation names it.
  const clientId = 'compliance-api-local';
  await idp.registerClient({ client_id: clientId, redirect_uris: [`${baseUrl}/v3/sso/callback`] });
  const demo = await loadDemoData({
    discoveryUrl: `${idp.issuer}/.well-known/openid-configuration`,
    clientId,
    baseUrl,
  });
  // The provider's own subject ids: opaque to the API, as any provider's are.
  for (const person of demoPeople()) idp.addAccount({ sub: randomUUID(), email_verified: true, ...person });
  const api = await startHotApi({ root, port, host: '127.0.0.1', env, log });
  stops.unshift(api.stop);
  // Events reach their consumers as in AWS: the table's stream, read here, hands them to the module
  // the stack deploys on it.
  const { handler } = await import('../../functions/events/consume');
  const stream = await startEventStream({ endpoint: dynamo.endpoint, tableName, handler, log });
  stops.unshift(stream.stop);

  // The stack's every-minute due-work runner (webhook retries, jobs whose worker died, automatic
  // sign-outs, expiry warnings, recurring runs), more often here (a 5 s webhook retry shows within 10 s),
  // one run at a time. Loaded once the local environment is set, like the demo data.
  const runDueWork = (await import('../../functions/due-work/run')).handler;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runDueWork()
      .catch((error: unknown) => log(`due work failed: ${error instanceof Error ? error.message : error}`))
      .finally(() => {
        running = false;
      });
  }, 10_000);
  stops.push(async () => clearInterval(timer));

  const credentials = {
    base_url: baseUrl,
    auth_url: baseUrl,
    ses_url: ses.endpoint,
    oidc_issuer: idp.issuer,
    dynamodb_endpoint: dynamo.endpoint,
    table_name: tableName,
    ...demo,
  };
  mkdirSync(localDir, { recursive: true });
  writeFileSync(resolve(localDir, 'credentials.json'), `${JSON.stringify(credentials, null, 2)}\n`, {
    mode: 0o600,
  });

  const [first] = demo.organisations;
  // Loaded once the local environment is set: the route table's modules read their configuration on import.
  const { routePath } = await import('#shared/http/links');
  const lines = [
    `Compliance API running at ${baseUrl} (DynamoDB Local ${dynamo.endpoint}, s3rver ${s3.endpoint})`,
    `API reference at ${baseUrl}${routePath('getDocsPage')}; the OpenAPI document at ${baseUrl}${routePath('getOpenApiJson')}`,
    `E-mail goes to the SES emulator at ${ses.endpoint} (open it in a browser to read the outbox)`,
    `OpenID provider at ${idp.issuer} (${idp.issuer}/.well-known/openid-configuration): every demo person signs in with their e-mail, no password`,
    `Events: ${first?.name}'s change feed at ${baseUrl}${routePath('listEvents', { org_id: first?.id ?? '' })}; the table's stream feeds functions/events/consume.ts`,
    '',
    ...demo.organisations.flatMap((o) => [
      `${o.name}  org_id=${o.id}`,
      ...o.clients.map(
        (c) => `  ${c.role.padEnd(6)} client_id=${c.client_id}  client_secret=${c.client_secret}`,
      ),
      ...(o.user ? [`  user   ${o.user.email}  X-Session-Token: ${o.user.session_token}`] : []),
      ...(o.sso ? [`  SSO    open ${o.sso.login_url} and sign in as anyone @${o.domain}`] : []),
    ]),
    '',
    'Credentials written to .local/credentials.json. In another terminal (bash or zsh), set BASE, ORG_ID, TOKEN,',
    "SESSION, CLIENT_ID, CLIENT_SECRET and ISSUER for the README's examples, and try them:",
    '',
    '  eval "$(npm run -s shell-env)"',
    '  curl -s -H "Authorization: Bearer $TOKEN" "$BASE/v3/orgs/$ORG_ID/people/teams?include=members"',
    '  curl -s -H "X-Session-Token: $SESSION" "$BASE/v3/whoami"',
    '  curl -s -G -H "Authorization: Bearer $TOKEN" "$BASE/v3/cost-rollups" \\',
    `    --data-urlencode 'filter=and(eq(organisation,${first?.id}),eq(cost_centre,${first?.costed_contract}),eq(cost_centre_type,scheme-contracts),eq(depth,all))'`,
    '',
    'In another terminal, npm run scenario:cdm walks a scheme through CDM 2015 (appointments to proposed changes);',
    'npm run scenario:people invites a person by e-mail, signs them in through SSO, and suspends them;',
    'npm run scenario:site refuses a worker at a site’s gate, inducts them, signs them in, and out at closing time.',
    '',
    'Saving a file under functions/, shared/ or infra/ reloads the API (the data stays).',
    'npm run invoke -- GET /v3/orgs calls one route as the demo admin. Ctrl-C stops everything.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
};

const shutdown = (code: number) => {
  stopAll().finally(() => process.exit(code));
};
process.once('SIGINT', () => shutdown(0));
process.once('SIGTERM', () => shutdown(0));

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  shutdown(1);
});
