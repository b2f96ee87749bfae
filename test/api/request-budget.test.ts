/**
 * Issue 20, item 4: a request budget per organisation and per client, kept in DynamoDB across containers.
 * With an organisation allowed 12 requests a minute and a client 8, one client is refused its 9th
 * request; a second client of the same organisation gets the organisation's last 4; the 429s carry
 * Retry-After and the IETF RateLimit headers; and another organisation is untouched by it all.
 *
 * Issue 39, finding 5: a request is charged once its caller is known, before its permission, media types,
 * query and body are checked, so refusals (403, 404, 406, 415, 400) are charged and carry the headers.
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

  it('a caller cannot spend another organisation’s budget: a path naming it is 404, charged to the caller’s client budget alone, and that organisation’s count stays as it was', async () => {
    await freshWindow();
    const window = Math.floor(Date.now() / 60_000) * 60;
    const key = { pk: `BUDGET#organisation#${a.org.id}`, sk: String(window) };
    const count = async () =>
      (await documents.send(new GetCommand({ TableName: tableName, Key: key }))).Item?.taken;
    const before = await count();
    const res = await hit(other, a.org.id);
    expect(res.status).toBe(404);
    expect(res.headers.get('ratelimit-policy')).toBe('"client";q=8;w=60');
    expect(res.headers.get('ratelimit')).toMatch(/^"client";r=\d+;t=\d+$/);
    expect(await count()).toBe(before);
  });
});

/** The client's requests left, as its answer's `RateLimit` shows them. */
const left = (res: Response) => {
  const match = /^"client";r=(\d+);t=\d+$/.exec(res.headers.get('ratelimit') ?? '');
  return match ? Number(match[1]) : undefined;
};

const manufacturer = { data: { type: 'equipment-manufacturers', attributes: { name: 'Refused Ltd' } } };

describe('refused requests are charged once the caller is known (issue 39, finding 5)', () => {
  it('each 403 is charged to the client and carries the RateLimit headers; a client refused 8 times is then answered 429', async () => {
    await freshWindow();
    const tenant = await newTenant('Budget forbidden', 0);
    const token = await api.token(tenant.viewer);
    const refusals: Response[] = [];
    for (let i = 0; i < 9; i++) {
      refusals.push(
        await fetch(`${api.url}/v3/orgs/${tenant.org.id}/assets/equipment-manufacturers`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
          body: JSON.stringify(manufacturer),
        }),
      );
    }
    expect(refusals.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403, 403, 403, 429]);
    for (const r of refusals)
      expect(r.headers.get('ratelimit-policy')).toBe('"organisation";q=12;w=60, "client";q=8;w=60');
    // Each of the 8 refusals took one of the client's 8.
    expect(refusals.map(left)).toEqual([7, 6, 5, 4, 3, 2, 1, 0, 0]);
    const tooMany = (await refusals[8]?.json()) as { errors: { status: string; detail: string }[] };
    expect(tooMany.errors[0]).toMatchObject({ status: '429', detail: expect.stringContaining('client') });
  });

  it('refusals of media type (415, 406), body (400) and query (400) are charged and carry the headers; a 401 is not', async () => {
    await freshWindow();
    const tenant = await newTenant('Budget refusals', 0);
    const token = await api.token(tenant.admin);
    const url = `${api.url}/v3/orgs/${tenant.org.id}/assets/equipment-manufacturers`;
    const auth = { authorization: `Bearer ${token}` };
    const answers = [
      // 415: a body that is not JSON:API.
      await fetch(url, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/plain' },
        body: JSON.stringify(manufacturer),
      }),
      // 400: a JSON:API body that is not JSON.
      await fetch(url, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/vnd.api+json' },
        body: '{"data":',
      }),
      // 406: only a JSON:API media type with an extension is accepted.
      await fetch(url, { headers: { ...auth, accept: 'application/vnd.api+json; ext="https://x.example"' } }),
      // 400: a query parameter with a control character.
      await fetch(`${url}?filter%5Bname%5D=a%01b`, { headers: auth }),
    ];
    expect(answers.map((r) => r.status)).toEqual([415, 400, 406, 400]);
    for (const r of answers) {
      expect(r.headers.get('ratelimit-policy')).toBe('"organisation";q=12;w=60, "client";q=8;w=60');
      const body = (await r.json()) as { errors: { status: string }[] };
      expect(body.errors[0]?.status).toBe(String(r.status));
    }
    expect(answers.map(left)).toEqual([7, 6, 5, 4]);
    // The next success finds 4 of the 8 spent.
    expect(left(await hit(token, tenant.org.id))).toBe(3);

    // No caller, no budget: a request whose credentials fail is answered 401 without RateLimit headers.
    const unknown = await fetch(url, { headers: { authorization: 'Bearer not-a-token' } });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('ratelimit')).toBeNull();
    expect(unknown.headers.get('ratelimit-policy')).toBeNull();
  });
});
