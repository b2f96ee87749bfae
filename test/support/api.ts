/**
 * API tests talk HTTP to the local adapter, which calls the real handler modules against DynamoDB Local.
 * Every response they see is checked for the spec's headers and, when it is JSON:API, against the
 * official JSON:API 1.1 schema.
 */
import type { Server } from 'node:http';
import { expect } from 'vitest';
import { startLocalApi } from '../../infra/local/http-adapter';
import type { ClientCredentials } from '../../infra/local/records';
import { assertJsonApiDocument } from './conformance';
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

const checkEnvelope = (response: Response, text: string) => {
  expect(response.headers.get('x-request-id'), 'X-Request-ID').toBeTruthy();
  expect(response.headers.get('content-length'), 'Content-Length').toBe(String(Buffer.byteLength(text)));
  if (text !== '') expect(response.headers.get('content-type'), 'Content-Type').toBeTruthy();
  if (response.headers.get('content-type')?.startsWith(JSONAPI)) assertJsonApiDocument(JSON.parse(text));
  expectSecurityHeaders(response.headers, new URL(response.url).pathname, response.status);
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
  const request = async (
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (typeof options.body === 'string') body = options.body;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= JSONAPI;
    }
    const response = await fetch(`${url}${path}`, { method, headers, ...(body !== undefined && { body }) });
    const text = await response.text();
    checkEnvelope(response, text);
    const type = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: type.includes('json') ? JSON.parse(text) : text,
    };
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
