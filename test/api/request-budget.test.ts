/**
 * Issue 20, item 4: a request budget per organisation and per client, kept in DynamoDB across containers.
 * With an organisation allowed 12 requests a minute and a client 8, one client is refused its 9th
 * request; a second client of the same organisation gets the organisation's last 4; the 429s carry
 * Retry-After and the IETF RateLimit headers; and another organisation is untouched by it all.
 */
import '../support/small-budgets';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, tableName } from '#shared/data/clients';
import { createServiceAccountClient } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let a: Tenant;
let b: Tenant;
let first: string;
let second: string;
let other: string;

beforeAll(async () => {
  api = await startTestApi();
  [a, b] = await Promise.all([newTenant('Budget A', 0), newTenant('Budget B', 0)]);
  const secondClient = await createServiceAccountClient('Budget A second', [
    { org_id: a.org.id, role: 'admin' },
  ]);
  [first, second, other] = await Promise.all([
    api.token(a.admin),
    api.token(secondClient),
    api.token(b.admin),
  ]);
});
afterAll(() => api.close());

/** A plain GET (no links followed, so every request counted is one of these). */
const hit = (token: string, orgId: string) =>
  fetch(`${api.url}/v3/orgs/${orgId}/assets/equipment-manufacturers`, {
    headers: { authorization: `Bearer ${token}` },
  });

/** Waits for a window with at least 20 s left, so the requests below all fall in one. */
const freshWindow = async () => {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((done) => setTimeout(done, left + 50));
};

describe('request budgets (issue 20, item 4)', () => {
  it('past its budget one organisation is answered 429 with Retry-After and RateLimit headers; another organisation is unaffected', async () => {
    await freshWindow();
    const window = Math.floor(Date.now() / 60_000) * 60;
    const firstStatuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 9; i++) {
      last = await hit(first, a.org.id);
      firstStatuses.push(last.status);
    }
    // The client's own budget (8) is spent first.
    expect(firstStatuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
    expect(last?.headers.get('ratelimit-policy')).toBe('"organisation";q=12;w=60, "client";q=8;w=60');
    expect(last?.headers.get('ratelimit')).toMatch(/^"client";r=0;t=\d+$/);
    const retryAfter = Number(last?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = (await last?.json()) as { errors: { status: string; detail: string }[] };
    expect(body.errors[0]).toMatchObject({ status: '429', detail: expect.stringContaining('client') });

    // A second client of the same organisation has the organisation's last 4 (12 − 8).
    const secondStatuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      last = await hit(second, a.org.id);
      secondStatuses.push(last.status);
    }
    expect(secondStatuses).toEqual([200, 200, 200, 200, 429]);
    expect(last?.headers.get('ratelimit')).toMatch(/^"organisation";r=0;t=\d+$/);
    const refusal = (await last?.json()) as { errors: { detail: string }[] } | undefined;
    expect(refusal?.errors[0]?.detail).toContain('organisation');

    // Another organisation: its whole budget, as if nothing had happened.
    const elsewhere = await hit(other, b.org.id);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get('ratelimit')).toMatch(/^"client";r=7;t=\d+$/);

    // Kept where every container sees it: the window's count in the table.
    const { Item } = await documents.send(
      new GetCommand({
        TableName: tableName,
        Key: { pk: `BUDGET#organisation#${a.org.id}`, sk: String(window) },
      }),
    );
    expect(Item?.taken).toBeGreaterThanOrEqual(12);
    expect(Item?.expires_at).toBe(window + 120);
  });

  it('a caller cannot spend another organisation’s budget: a path naming it is 404, unbudgeted, and that organisation’s count stays as it was', async () => {
    await freshWindow();
    const window = Math.floor(Date.now() / 60_000) * 60;
    const key = { pk: `BUDGET#organisation#${a.org.id}`, sk: String(window) };
    const count = async () =>
      (await documents.send(new GetCommand({ TableName: tableName, Key: key }))).Item?.taken;
    const before = await count();
    const res = await hit(other, a.org.id);
    expect(res.status).toBe(404);
    expect(res.headers.get('ratelimit-policy')).toBeNull();
    expect(await count()).toBe(before);
  });
});
