/**
 * Issue 20, item 3: one JSON log line per request, joined to its response and the gateway's access log
 * by one id. Without an X-Request-ID from the caller, the id is API Gateway's request id (the access
 * log's `requestId`); the line names the route, method, status, duration, principal and organisation,
 * and never a body, header or query string.
 */
import '../security/debug-logging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, startTestApi, type TestApi } from '../support/api';
import { writtenWhile } from '../support/output';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Request Log Org', 0);
  token = await api.token(tenant.admin);
});
afterAll(() => api.close());

/** A request's response, and every JSON line the service wrote while it ran. */
const logged = async (send: () => Promise<ApiResponse>) => {
  const { result: res, lines } = await writtenWhile(send);
  return { res, lines };
};

const requestLines = (lines: Record<string, unknown>[], id: string) =>
  lines.filter((l) => l.message === 'request' && l.requestId === id);

describe('the request log line (issue 20, item 3)', () => {
  it('a request without X-Request-ID: the header is the gateway’s request id, and one line carries it with route, status, duration, principal and organisation', async () => {
    const path = `/v3/orgs/${tenant.org.id}/assets/equipment-manufacturers?filter[name]=secret-filter-value`;
    const { res, lines } = await logged(() => api.get(path, token));
    expect(res.status, res.text).toBe(200);
    const id = String(res.headers.get('x-request-id'));
    const [line, ...more] = requestLines(lines, id);
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 'INFO',
      service: 'compliance-api',
      requestId: id,
      gatewayRequestId: id,
      route: 'listEquipmentManufacturers',
      method: 'GET',
      status: 200,
      durationMs: expect.any(Number),
      principal: tenant.admin.principalId,
      organisation: tenant.org.id,
    });
    expect(JSON.stringify(line)).not.toContain('secret-filter-value');
    expect(JSON.stringify(line)).not.toContain(token);
  });

  it('a caller’s own X-Request-ID is echoed and logged, beside the gateway’s; an error is logged with its status', async () => {
    const { res, lines } = await logged(() =>
      api.request('GET', `/v3/vehicles/${'0'.repeat(8)}-0000-7000-8000-000000000000`, {
        token,
        headers: { 'x-request-id': 'client-trace-0001' },
      }),
    );
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe('client-trace-0001');
    const [line] = requestLines(lines, 'client-trace-0001');
    expect(line).toMatchObject({ route: 'getVehicle', status: 404, principal: tenant.admin.principalId });
    expect(line?.gatewayRequestId).toEqual(expect.any(String));
    expect(line?.gatewayRequestId).not.toBe('client-trace-0001');
  });
});
