/**
 * What `npm start` wrote to `.local/credentials.json`, read back by the scripts that call the running API
 * as a demo principal (`npm run invoke`, `npm run -s shell-env`). Whatever goes wrong is a `Refusal`: one
 * line saying what to do, never a stack trace.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod';

export class Refusal extends Error {}

const START = 'start it with `npm start` in another terminal';
const file = resolve(import.meta.dirname, '../../.local/credentials.json');

const credentialsSchema = z.object({
  base_url: z.url(),
  auth_url: z.url(),
  oidc_issuer: z.url().optional(),
  /** The running stack's DynamoDB Local and table, for `npm run migrate`. */
  dynamodb_endpoint: z.url().optional(),
  table_name: z.string().optional(),
  organisations: z
    .array(
      z.object({
        id: z.string().optional(),
        clients: z.array(
          z.object({ client_id: z.string(), client_secret: z.string(), role: z.enum(['admin', 'viewer']) }),
        ),
        user: z.object({ session_token: z.string() }).optional(),
      }),
    )
    .min(1),
});
export type Credentials = z.infer<typeof credentialsSchema>;

export const readCredentials = (): Credentials => {
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
export const call = async (url: string, init: RequestInit): Promise<Response> => {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED')
      throw new Refusal(`Nothing is listening at ${new URL(url).origin}: ${START}.`);
    throw new Refusal(`${init.method ?? 'GET'} ${url} failed: ${code ?? (error as Error).message}`);
  }
};

/** The first demo organisation's client of that role, and a fresh access token for it. */
export const demoClientToken = async (credentials: Credentials, role: 'admin' | 'viewer') => {
  const client = credentials.organisations[0]?.clients.find((c) => c.role === role);
  if (!client) throw new Refusal(`The first demo organisation has no ${role} client.`);
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
      `No token for the demo ${role} (${response.status} ${body.error ?? ''}): the server is not the one that wrote .local/credentials.json; restart npm start.`,
    );
  return { client, token: body.access_token };
};

/** Runs a script's main: a refusal prints its one line and exits 2. */
export const runScriptMain = (name: string, main: () => Promise<void>) =>
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Refusal ? error.message : `${name} failed: ${String(error)}`}\n`,
    );
    process.exitCode = 2;
  });
