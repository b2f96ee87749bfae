/**
 * `npm run scenario:cdm`: the CDM walk-through against a running `npm start`, as the first demo
 * organisation's admin client from `.local/credentials.json`. It prints each step and the ids it made.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Http, runCdmScenario } from './cdm';

interface Credentials {
  base_url: string;
  organisations: {
    id: string;
    name: string;
    clients: { client_id: string; client_secret: string; role: string }[];
  }[];
}

const credentials = JSON.parse(readFileSync(resolve('.local/credentials.json'), 'utf8')) as Credentials;
const [org] = credentials.organisations;
const admin = org?.clients.find((c) => c.role === 'admin');
if (!org || !admin)
  throw new Error('.local/credentials.json has no organisation with an admin client; run npm start first.');

const http: Http = {
  request: async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const body =
      typeof options.body === 'string' ? options.body : options.body && JSON.stringify(options.body);
    if (body !== undefined && typeof options.body !== 'string')
      headers['content-type'] = 'application/vnd.api+json';
    const response = await fetch(`${credentials.base_url}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body }),
    });
    const text = await response.text();
    return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
  },
};

const token = await http.request('POST', '/oauth2/token', {
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: admin.client_id,
    client_secret: admin.client_secret,
  }).toString(),
});
const adminToken = (token.body as { access_token: string }).access_token;
process.stdout.write(`CDM walk-through in ${org.name} (${org.id}) at ${credentials.base_url}\n`);
const result = await runCdmScenario(http, org.id, adminToken, (line) =>
  process.stdout.write(`  ✓ ${line}\n`),
);
process.stdout.write(
  `Done. Scheme ${result.schemeId}, pre-construction information ${result.packId}, plan ${result.planId}.\n` +
    `  GET ${credentials.base_url}/v3/construction-phase-plans/${result.planId}/versions\n`,
);
