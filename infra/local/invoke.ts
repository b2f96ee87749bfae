/**
 * `npm run invoke -- <METHOD> <PATH> [--body JSON] [--as admin|viewer|user]`: one request to the API that
 * `npm start` serves, as a demo principal from `.local/credentials.json` (the first organisation's admin
 * client by default), printing the status, the headers and the body, like `sam local invoke`. Exits 0 on
 * a 1xx-3xx answer, 1 on a 4xx or 5xx (the error document is printed all the same, so scripts can test
 * it), and 2 when no request could be made: then one line on stderr says why, never a stack trace.
 */
import { parseArgs } from 'node:util';
import {
  type Credentials,
  call,
  demoClientToken,
  Refusal,
  readCredentials,
  runScriptMain,
} from './demo-credentials';

const USAGE = 'Usage: npm run invoke -- <METHOD> <PATH> [--body JSON] [--as admin|viewer|user]';

const principalHeaders = async (credentials: Credentials, as: string): Promise<Record<string, string>> => {
  if (as === 'user') {
    const user = credentials.organisations[0]?.user;
    if (!user) throw new Refusal('The first demo organisation has no user session.');
    return { 'X-Session-Token': user.session_token };
  }
  const { token } = await demoClientToken(credentials, as === 'viewer' ? 'viewer' : 'admin');
  return { Authorization: `Bearer ${token}` };
};

const parse = () => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: { body: { type: 'string' }, as: { type: 'string', default: 'admin' } },
    });
  } catch (error) {
    throw new Refusal(`${(error as Error).message}\n${USAGE}`);
  }
};

const main = async () => {
  const args = parse();
  const [method, path, ...extra] = args.positionals;
  if (!method || !path?.startsWith('/') || extra.length > 0) throw new Refusal(USAGE);
  if (!['admin', 'viewer', 'user'].includes(args.values.as)) throw new Refusal(USAGE);
  const credentials = readCredentials();
  const headers = await principalHeaders(credentials, args.values.as);
  const response = await call(`${credentials.base_url}${path}`, {
    method: method.toUpperCase(),
    // The answer as the API gives it: a 303 to a download is printed, not followed.
    redirect: 'manual',
    headers: {
      ...headers,
      ...(args.values.body !== undefined && { 'Content-Type': 'application/vnd.api+json' }),
    },
    ...(args.values.body !== undefined && { body: args.values.body }),
  });
  const text = await response.text();
  let body = text;
  try {
    body = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON (an empty 204, a file): printed as it came.
  }
  const head = [...response.headers].map(([name, value]) => `${name}: ${value}`);
  process.stdout.write(`${response.status} ${response.statusText}\n${head.join('\n')}\n\n${body}\n`);
  if (response.status >= 400) process.exitCode = 1;
};

runScriptMain('invoke', main);
