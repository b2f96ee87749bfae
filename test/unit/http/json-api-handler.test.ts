import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import type { ApiContext } from '#shared/http/api-context';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import type { Route } from '#shared/routes';

const route: Route = {
  id: 'boom',
  method: 'GET',
  path: '/v3/boom',
  handler: 'x',
  auth: [],
  permission: null,
  access: {},
};

const event = {
  version: '2.0',
  routeKey: 'GET /v3/boom',
  rawPath: '/v3/boom',
  rawQueryString: '',
  headers: { host: 'api.example' },
  isBase64Encoded: false,
  requestContext: {
    accountId: 'a',
    apiId: 'b',
    domainName: 'api.example',
    domainPrefix: 'api',
    http: { method: 'GET', path: '/v3/boom', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 't' },
    requestId: 'r',
    routeKey: 'GET /v3/boom',
    stage: '$default',
    time: '',
    timeEpoch: 0,
  },
} satisfies APIGatewayProxyEventV2;

describe('unexpected exceptions', () => {
  it('become a generic 500 JSON:API error with no internals; the stack goes to the log with the request id', async () => {
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const handler = jsonApiHandler(route, async () => {
      throw new Error('secret internal detail at db.example:5432');
    });
    const result = await handler(event, {} as ApiContext);
    const lines = logged.mock.calls.map(([text]) => String(text));
    logged.mockRestore();
    expect(result.statusCode).toBe(500);
    const body = JSON.parse(result.body ?? '');
    expect(body.errors).toEqual([{ id: expect.any(String), status: '500', title: 'Internal Server Error' }]);
    expect(result.body).not.toContain('secret internal detail');
    const requestId = result.headers?.['X-Request-ID'];
    expect(requestId).toBeTruthy();
    const line = lines.find((t) => t.includes('secret internal detail'));
    expect(line).toContain(String(requestId));
    expect(line).toContain('"stack"');
  });
});
