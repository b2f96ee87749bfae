/**
 * Indexed filters (issue 42, item 1) on an agent's briefings (`/v3/agents/{agent_id}/briefings`), a
 * briefing a site a working day: `status` on the agent's `gsi2` partition, in creation order (the list's
 * one sort), and `generated_at.since/until` on the agent's range of `lsi1`, in generation order; each reads
 * that agent's briefings alone, never another agent's or organisation's. Seeded with BatchWriteItem as their
 * creates would have stored them, filed under their agent (children.ts); a result arriving goes through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents, briefings } from '#functions/agents/definitions';
import type { StoredResource } from '#shared/data/stored-resource';
import { fileChild } from '#shared/engine/children';
import { newRecord } from '#shared/engine/record-writes';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { idsByCursor } from '../support/cursor-walk';
import { expectCursorPagesRead, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const MINUTE = 60_000;
const START = Date.UTC(2026, 2, 1);
const STATUSES = ['ready', 'ready', 'generating', 'ready', 'failed', 'archived', 'ready'];

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let token: string;
let adviser: StoredResource;
let filed: StoredResource[];
const at = (i: number) => new Date(START + i * MINUTE);
/** Generated up to an hour after it was made (none while generating or failed): out of creation order. */
const generatedAt = (i: number, status: string) =>
  status === 'ready' || status === 'archived' ? new Date(START + (i + ((i * 37) % 60)) * MINUTE) : null;

const agent = (orgId: string, name: string) =>
  newRecord(
    agents,
    orgId,
    { attributes: { name, persona: 'Reviews site records.', enabled: true } },
    at(-10),
  );
const briefing = (owner: StoredResource, i: number) => {
  const status = STATUSES[i % STATUSES.length] as string;
  const generated = generatedAt(i, status);
  return fileChild(
    owner,
    newRecord(
      briefings,
      owner.org_id,
      {
        attributes: { status, ...(generated && { summary: `Briefing ${i}`, sections: [] }) },
        meta: { generated_at: generated?.toISOString() ?? null },
        rels: { agent: owner.id },
      },
      at(i),
    ),
  );
};

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Indexed briefings', 0), newTenant('Other briefings', 0)]);
  token = await api.token(tenant.admin);
  adviser = agent(tenant.org.id, 'Adviser');
  const [second, elsewhere] = [agent(tenant.org.id, 'Second'), agent(other.org.id, 'Elsewhere')];
  // 200 of the adviser's, interleaved with another agent's and another organisation's, alike in every value.
  filed = Array.from({ length: 200 }, (_, i) => briefing(adviser, i));
  const others = Array.from({ length: 120 }, (_, i) => briefing(i % 2 === 0 ? second : elsewhere, i));
  await bulkPutCounted([adviser, second, elsewhere, ...filed, ...others]);
}, 60_000);
afterAll(() => api.close());

const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);
const list = () => `/v3/agents/${adviser.id}/briefings`;
const generated = (r: StoredResource) => String(r.meta.generated_at ?? '');
const SINCE = at(40).toISOString();
const UNTIL = at(70).toISOString();
const inWindow = (r: StoredResource) =>
  r.meta.generated_at !== null && generated(r) >= SINCE && generated(r) <= UNTIL;
/** The unindexed read's answer: the adviser's matches, newest first (or oldest, by `sort=created_at`). */
const matching = (keep: (r: StoredResource) => boolean, oldestFirst = false) => {
  const ids = filed.filter(keep).map((r) => r.id);
  return oldestFirst ? ids : ids.reverse();
};
const is = (status: string) => (r: StoredResource) => r.attributes.status === status;
const measured = (path: string) => measuredGet(api, token, path);

describe("an agent's briefings: indexed filters answer what the partition filter answered", () => {
  const cases: [string, () => string[]][] = [
    ['filter[status]=ready', () => matching(is('ready'))],
    ['filter[status]=failed&sort=created_at', () => matching(is('failed'), true)],
    [`filter[generated_at.since]=${SINCE}&filter[generated_at.until]=${UNTIL}`, () => matching(inWindow)],
    [
      `filter[status]=archived&filter[generated_at.since]=${SINCE}&sort=created_at`,
      () => matching((r) => is('archived')(r) && r.meta.generated_at !== null && generated(r) >= SINCE, true),
    ],
  ];

  it("by offset and by cursor: every page, the total and every match, the agent's alone", async () => {
    for (const [query, expected] of cases) {
      expect(expected().length, query).toBeGreaterThan(0);
      const res = await api.get(`${list()}?${query}&page[limit]=100`, token);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(idsOf(res.body), query).toEqual(expected().slice(0, 100));
      expect(res.body.meta.pagination.counts.resources, query).toBe(expected().length);
      const walked = await idsByCursor(api, `${list()}?${query}&page[limit]=7&page[cursor]=`, token);
      expect(walked, query).toEqual(expected());
    }
  });

  it('a status page by cursor reads at most 1.1× the briefings it returns and the agent, in the same calls at page sizes 3 and 8', async () => {
    const paths = ['filter[status]=ready', 'filter[status]=generating&sort=created_at'].map(
      (query) => `${list()}?${query}`,
    );
    await expectCursorPagesRead(measured, paths, { limits: [3, 8], full: true, besides: 1 });
  });

  it("a generation window reads the window's briefings in the agent (and the agent), not every briefing", async () => {
    const page = await measured(
      `${list()}?filter[generated_at.since]=${SINCE}&filter[generated_at.until]=${UNTIL}&page[limit]=100`,
    );
    expect(idsOf(page.body).length).toBeGreaterThan(0);
    expect(page.items).toBeLessThanOrEqual(filed.filter(inWindow).length + 1);
  });

  it('meta.features names every filter indexed', async () => {
    const res = await api.get(`${list()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter).toEqual({
      options: ['status', 'generated_at.since', 'generated_at.until'],
      indexed: ['status', 'generated_at.since', 'generated_at.until'],
    });
  });
});

describe("an agent's briefings: a result arriving moves the entries", () => {
  it('a briefing made generating is found as generating; once its result is stored, as ready and in its generation window', async () => {
    const posted = await api.request('POST', `/v3/agents/${adviser.id}/briefings`, {
      token,
      body: { data: { type: 'briefings', attributes: {} } },
    });
    expect(posted.status, posted.text).toBe(201);
    const id = posted.body.data.id as string;
    const found = async (query: string) =>
      idsOf((await api.get(`${list()}?${query}&page[limit]=100`, token)).body).includes(id);
    const since = `filter[generated_at.since]=${new Date(Date.now() - 60 * MINUTE).toISOString()}`;
    expect([await found('filter[status]=generating'), await found(since)]).toEqual([true, false]);
    const result = {
      summary: 'Nothing new.',
      sections: [{ title: 'Overview', items: [], reasoning: '' }],
      reasoning: {},
      model_used: 'example-model',
      token_usage: { prompt_tokens: 1, completion_tokens: 1 },
    };
    const patched = await api.request('PATCH', `/v3/briefings/${id}`, {
      token,
      body: { data: { type: 'briefings', id, attributes: result } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(await found('filter[status]=generating')).toBe(false);
    expect([await found('filter[status]=ready'), await found(since)]).toEqual([true, true]);
  });
});
