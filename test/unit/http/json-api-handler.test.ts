import { describe, expect, it, vi } from 'vitest';
import type { ApiContext } from '#shared/http/api-context';
import { jsonApiHandler } from '#shared/http/json-api-handler';
import { SECURITY_HEADERS, securityHeaders } from '#shared/http/middlewares/security-headers';
import type { Route } from '#shared/routes';
import { gatewayEvent } from '../../support/gateway-event';

const route: Route = {
  id: 'boom',
  method: 'GET',
  path: '/v3/boom',
  area: 'test',
  tag: 'Test',
  handler: 'x',
  auth: [],
  permission: null,
  access: {},
};

const event = gatewayEvent({ method: 'GET', route: '/v3/boom', path: '/v3/boom' });

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

describe('security headers (issue 15, finding 6)', () => {
  const authenticated: Route = { ...route, auth: ['OAuth2'], permission: 'teams:view' };
  const answer = (headers: Record<string, string>) => ({
    response: { statusCode: 200, headers, body: '' },
  });

  it('an authenticated route’s own Cache-Control and fingerprinting headers are replaced', () => {
    const request = answer({
      'cache-control': 'public, max-age=60',
      Server: 'x',
      'X-Powered-By': 'y',
      Allow: 'GET',
    });
    securityHeaders(authenticated).after?.(request as never);
    expect(request.response.headers).toEqual({ Allow: 'GET', ...SECURITY_HEADERS });
  });

  it('a public route may keep its own caching; without one it gets no-store', () => {
    const cached = answer({ 'Cache-Control': 'public, max-age=300' });
    securityHeaders(route).after?.(cached as never);
    expect(cached.response.headers['Cache-Control']).toBe('public, max-age=300');
    const plain = answer({});
    securityHeaders(route).after?.(plain as never);
    expect(plain.response.headers).toEqual(SECURITY_HEADERS);
  });

  it('a 500 rendered from an unexpected exception carries them', async () => {
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const result = await jsonApiHandler(route, async () => {
      throw new Error('boom');
    })(event, {} as ApiContext);
    logged.mockRestore();
    expect(result.statusCode).toBe(500);
    expect(result.headers).toMatchObject(SECURITY_HEADERS);
  });
});
