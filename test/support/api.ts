/**
 * API tests talk HTTP to the local adapter, which calls the real handler modules against DynamoDB Local.
 * Every response they see is checked for the spec's headers; when it is JSON:API, against the official
 * JSON:API 1.1 schema and for its top-level links (`document-links.ts`); and against the OpenAPI document
 * (`openapi-check.ts`). Every link it carries is followed (`followLinks`).
 */
import type { Server } from 'node:http';
import { expect } from 'vitest';
import { matchRoute } from '#shared/routes';
import { startLocalApi } from '../../infra/local/http-adapter';
import type { ClientCredentials } from '../../infra/local/records';
import { assertJsonApiDocument } from './conformance';
import { expectDocumentLinks } from './document-links';
import { checkAgainstDocument } from './openapi-check';
import { expectSecurityHeaders } from './security-headers';

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of response documents
  body: any;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  body?: string | object;
}

export const JSONAPI = 'application/vnd.api+json';

/**
 * Answers are asked for as they are, so `Content-Length` can be checked against the text read (fetch
 * decodes an encoded body and hides its length); test/api/compression.test.ts reads encoded answers.
 */
const AS_IS = { 'accept-encoding': 'identity' };

const checkEnvelope = (response: Response, text: string) => {
  expect(response.headers.get('x-request-id'), 'X-Request-ID').toBeTruthy();
  expect(response.headers.get('content-length'), 'Content-Length').toBe(String(Buffer.byteLength(text)));
  if (text !== '') expect(response.headers.get('content-type'), 'Content-Type').toBeTruthy();
  if (response.headers.get('content-type')?.startsWith(JSONAPI)) assertJsonApiDocument(JSON.parse(text));
  expectSecurityHeaders(response.headers, new URL(response.url).pathname, response.status);
};

/** The headers that carry credentials, so a followed link is read as the caller that was given it. */
const CREDENTIALS = new Set(['authorization', 'x-session-token', 'cookie']);

/**
 * A link's shape: the route that serves it (or, for a link no route serves, its path with ids replaced)
 * and the names of its query parameters. Links of one shape differ only in ids, so one of them is enough.
 */
const linkShape = (link: URL): string => {
  const { match } = matchRoute('GET', link.pathname);
  const path =
    match?.route.path ?? link.pathname.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/gi, '{id}');
  return `${path}?${[...new Set(link.searchParams.keys())].sort().join('&')}`;
};

/** The pagination links of a collection: a client pages with them, so each must resolve like `self`. */
const PAGING_LINKS = ['first', 'prev', 'next', 'last'] as const;

/**
 * Every URL a successful response names: its `Location`, its top-level `links.self` and pagination
 * links, and each resource's `links.self`.
 */
const linksOf = (status: number, headers: Headers, body: unknown): string[] => {
  if (status < 200 || status > 299) return [];
  const location = headers.get('location');
  const document = (typeof body === 'object' && body !== null ? body : {}) as {
    links?: Record<string, unknown>;
    data?: unknown;
    included?: unknown;
  };
  const resources = [document.data, document.included].flat();
  return [
    ...(location ? [location] : []),
    ...[document, ...resources].map((r) => (r as typeof document | null)?.links?.self),
    ...PAGING_LINKS.map((name) => document.links?.[name]),
  ].filter((link): link is string => typeof link === 'string');
};

/**
 * Whether a link that did not answer 200 was refused by design rather than dead: the route serves it,
 * but this caller may not read it. A request without credentials (an SNS delivery) gets 401 on an
 * authenticated route; a caller whose grants lack the route's permission (a device may create backups
 * but not view them) gets 403. A 404, a 405, or a 403 for a caller holding the permission is a dead link.
 */
const refusedByDesign = async (
  base: string,
  link: URL,
  credentials: Record<string, string>,
  status: number,
): Promise<boolean> => {
  const { match } = matchRoute('GET', link.pathname);
  if (!match || match.route.auth.length === 0) return false;
  if (Object.keys(credentials).length === 0) return status === 401;
  const { permission } = match.route;
  if (status !== 403 || permission === null || permission === 'authenticated') return false;
  const me = await fetch(`${base}/v3/whoami`, { headers: credentials });
  const whoami = (await me.json()) as {
    data: { meta: { organisations: { id: string; permissions: string[] }[] } };
  };
  const { organisations } = whoami.data.meta;
  const orgId = match.params.org_id;
  return !organisations.some(
    (org) => (orgId === undefined || org.id === orgId) && org.permissions.includes(permission),
  );
};

/**
 * Issue 15: every link the API emits must resolve. Each link a response names is fetched with a GET at
 * once (a record deleted later in the test would answer 404), with the credentials of the request that
 * produced it, and must answer 200 (or be refused by design, above). Links elsewhere (presigned storage
 * URLs) are not the API's to serve. `followed` holds the shapes this API instance (one per test file)
 * has seen answer 200; links of those shapes are not followed again.
 */
const followLinks = async (
  base: string,
  followed: Set<string>,
  requestHeaders: Record<string, string>,
  response: { status: number; headers: Headers; body: unknown },
  origin: string,
) => {
  const credentials = Object.fromEntries(
    Object.entries(requestHeaders).filter(([name]) => CREDENTIALS.has(name.toLowerCase())),
  );
  for (const link of linksOf(response.status, response.headers, response.body)) {
    const url = new URL(link);
    if (url.origin !== base) continue;
    const shape = linkShape(url);
    if (followed.has(shape)) continue;
    const answer = await fetch(url, { headers: { ...AS_IS, ...credentials } });
    const text = await answer.text();
    checkEnvelope(answer, text);
    checkAgainstDocument({
      method: 'GET',
      path: url.pathname,
      requestType: undefined,
      requestBody: undefined,
      status: answer.status,
      contentType: answer.headers.get('content-type'),
      text,
    });
    if (answer.status === 200) followed.add(shape);
    else if (!(await refusedByDesign(base, url, credentials, answer.status)))
      expect.fail(`GET ${link} (named by ${origin}) answers ${answer.status}, not 200: ${text}`);
  }
};

export interface TestApi {
  url: string;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  get(path: string, token?: string): Promise<ApiResponse>;
  token(client: ClientCredentials): Promise<string>;
  close(): Promise<void>;
}

/** Starts the API on the port the test environment reserved for this file (the tokens' issuer). */
export const startTestApi = async (): Promise<TestApi> => {
  const issuer = new URL(process.env.TOKEN_ISSUER ?? '');
  const { server, url } = await startLocalApi(Number(issuer.port));
  const followed = new Set<string>();
  const request = async (
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...AS_IS, ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (typeof options.body === 'string') body = options.body;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= JSONAPI;
    }
    // The API's own answer is what is checked: a redirect (303) is not followed.
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      redirect: 'manual',
      ...(body !== undefined && { body }),
    });
    const text = await response.text();
    checkEnvelope(response, text);
    checkAgainstDocument({
      method,
      path: new URL(`${url}${path}`).pathname,
      requestType: headers['content-type'],
      requestBody: body,
      status: response.status,
      contentType: response.headers.get('content-type'),
      text,
    });
    const type = response.headers.get('content-type') ?? '';
    const answer = {
      status: response.status,
      headers: response.headers,
      text,
      body: type.includes('json') ? JSON.parse(text) : text,
    };
    expectDocumentLinks(method, `${url}${path}`, answer);
    // A GET that answered 200 has just shown its own shape resolves.
    if (method === 'GET' && answer.status === 200) followed.add(linkShape(new URL(`${url}${path}`)));
    await followLinks(url, followed, headers, answer, `${method} ${path}`);
    return answer;
  };
  return {
    url,
    request,
    get: (path, token) => request('GET', path, token ? { token } : {}),
    token: async (client) => {
      const response = await request('POST', '/oauth2/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
        }).toString(),
      });
      expect(response.status, response.text).toBe(200);
      return response.body.access_token as string;
    },
    close: () => closeServer(server),
  };
};

const closeServer = (server: Server) =>
  new Promise<void>((done) => {
    server.closeAllConnections();
    server.close(() => done());
  });
