/**
 * `npm run invoke -- <METHOD> <PATH> [--body JSON] [--as admin|viewer|user]`: one request to the API that
 * `npm start` serves, as a demo principal from `.local/credentials.json` (the first organisation's admin
 * client by default), printing the status, the headers and the body, like `sam local invoke`. Exits 0 on
 * a 1xx-3xx answer, 1 on a 4xx or 5xx (the error document is printed all the same, so scripts can test
 * it), and 2 when no request could be made: then one line on stderr says why, never a stack trace.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as z from 'zod';

const USAGE = 'Usage: npm run invoke -- <METHOD> <PATH> [--body JSON] [--as admin|viewer|user]';
const START = 'start it with `npm start` in another terminal';
const file = resolve(import.meta.dirname, '../../.local/credentials.json');

class Refusal extends Error {}

const credentialsSchema = z.object({
  base_url: z.url(),
  auth_url: z.url(),
  organisations: z
    .array(
      z.object({
        clients: z.array(
          z.object({ client_id: z.string(), client_secret: z.string(), role: z.enum(['admin', 'viewer']) }),
        ),
        user: z.object({ session_token: z.string() }).optional(),
      }),
    )
    .min(1),
});
type Credentials = z.infer<typeof credentialsSchema>;

const readCredentials = (): Credentials => {
  let json: unknown = null;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT')
      throw new Refusal(`No local API has run here (no .local/credentials.json): ${START}.`);
  }
  const parsed = credentialsSchema.safeParse(json);
  if (!parsed.success) throw new Refusal(`.local/credentials.json is not what npm start writes: ${START}.`);
  return parsed.data;
};

/** A refused connection means nothing listens: say how to start it rather than how fetch failed. */
const call = async (url: string, init: RequestInit): Promise<Response> => {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED')
      throw new Refusal(`Nothing is listening at ${new URL(url).origin}: ${START}.`);
    throw new Refusal(`${init.method ?? 'GET'} ${url} failed: ${code ?? (error as Error).message}`);
  }
};

const principalHeaders = async (credentials: Credentials, as: string): Promise<Record<string, string>> => {
  const [org] = credentials.organisations;
  if (as === 'user') {
    if (!org?.user) throw new Refusal('The first demo organisation has no user session.');
    return { 'X-Session-Token': org.user.session_token };
  }
  const client = org?.clients.find((c) => c.role === as);
  if (!client) throw new Refusal(`The first demo organisation has no ${as} client.`);
  const response = await call(`${credentials.auth_url}/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
    }),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string };
  if (!body.access_token)
    throw new Refusal(
      `No token for the demo ${as} (${response.status} ${body.error ?? ''}): the server is not the one that wrote .local/credentials.json; restart npm start.`,
    );
  return { Authorization: `Bearer ${body.access_token}` };
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

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Refusal ? error.message : `invoke failed: ${String(error)}`}\n`);
  process.exitCode = 2;
});
