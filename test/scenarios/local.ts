/**
 * What a scenario runner needs of a running `npm start`: its credentials file, plain HTTP to its API
 * (redirects not followed: a scenario checks the API's own answer), and the first demo organisation's
 * admin client's access token.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Http } from './cdm';

export interface LocalCredentials {
  base_url: string;
  ses_url?: string;
  oidc_issuer?: string;
  organisations: {
    id: string;
    name: string;
    domain?: string;
    clients: { client_id: string; client_secret: string; role: string }[];
    sso?: { oidc_identifier: string; login_url: string };
  }[];
}

export const credentials = JSON.parse(
  readFileSync(resolve('.local/credentials.json'), 'utf8'),
) as LocalCredentials;

export const http: Http = {
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
      redirect: 'manual',
      ...(body !== undefined && { body }),
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      body: text ? JSON.parse(text) : undefined,
      headers: response.headers,
    };
  },
};

/** The first demo organisation and its admin client's access token. */
export const firstOrganisationAdmin = async () => {
  const [org] = credentials.organisations;
  const admin = org?.clients.find((c) => c.role === 'admin');
  if (!org || !admin)
    throw new Error('.local/credentials.json has no organisation with an admin client; run npm start first.');
  const token = await http.request('POST', '/oauth2/token', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: admin.client_id,
      client_secret: admin.client_secret,
    }).toString(),
  });
  return { org, adminToken: (token.body as { access_token: string }).access_token };
};
