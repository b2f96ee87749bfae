/**
 * Issue 39, finding 6: 50 simultaneous requests of one client spent 475–915 of its 1,200 from one
 * container's view, as each request that found the lease used up leased for itself and replaced the
 * others' lease. With the production budgets (a client's lease is 24), 50 simultaneous requests in one
 * process (one container: the local adapter runs every area in this one) must take exactly 50.
 */
import '../support/default-budgets';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, tableName } from '#shared/data/clients';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Budget concurrency', 0);
  token = await api.token(tenant.admin);
});
afterAll(() => api.close());

const hit = () =>
  fetch(`${api.url}/v3/orgs/${tenant.org.id}/assets/equipment-manufacturers`, {
    headers: { authorization: `Bearer ${token}` },
  });

/** The client's requests left, as an answer's `RateLimit` shows them. */
const left = (res: Response) => {
  const match = /^"client";r=(\d+);t=\d+$/.exec(res.headers.get('ratelimit') ?? '');
  return match ? Number(match[1]) : Number.NaN;
};

describe('concurrent requests of one client (issue 39, finding 6)', () => {
  it('50 simultaneous requests take 50 of the client’s 1,200: the next one sees 1,149 left, and the table holds no more than they used', async () => {
    // A window with at least 20 s left, so every request below falls in it.
    const untilNext = 60_000 - (Date.now() % 60_000);
    if (untilNext < 20_000) await new Promise((done) => setTimeout(done, untilNext + 50));
    const window = Math.floor(Date.now() / 60_000) * 60;

    const answers = await Promise.all(Array.from({ length: 50 }, hit));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    // What the last of them to be let through saw left.
    expect(Math.min(...answers.map(left))).toBe(1150);
    expect(left(await hit())).toBe(1149);

    // 51 requests: leases sized by what the container let through (issue 42, item 6) take exactly 51;
    // three leases of 24 took 72 before, and each request leasing its own took up to 1,200.
    const { Item } = await documents.send(
      new GetCommand({
        TableName: tableName,
        Key: { pk: `BUDGET#client#${tenant.admin.principalId}`, sk: String(window) },
      }),
    );
    expect(Item?.taken).toBe(51);
  });
});
