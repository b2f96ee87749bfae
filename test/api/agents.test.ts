import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let admin: string;
let agentId: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Agents Org', 0);
  admin = await api.token(tenant.admin);
  const res = await api.request('POST', `/v3/orgs/${tenant.org.id}/agents`, {
    token: admin,
    body: {
      data: {
        type: 'agents',
        attributes: {
          name: 'Site safety adviser',
          persona: 'You review site records for CDM risks.',
          enabled: true,
        },
      },
    },
  });
  expect(res.status, res.text).toBe(201);
  agentId = res.body.data.id;
});
afterAll(() => api.close());

const result = {
  summary: 'Two high risks on the reservoir scheme.',
  sections: [
    {
      title: 'Key risks',
      items: [
        { text: 'Excavation beside 33 kV line', severity: 'red' },
        { text: 'Silt', severity: 'amber' },
      ],
      reasoning: 'Both appear in the PCI without controls.',
    },
    {
      title: 'Recommended actions',
      items: [{ text: 'Add goalposts', rag: 'amber' }],
      reasoning: 'Standard control.',
    },
    { title: 'Permit compliance', items: [{ text: 'All permits granted' }], reasoning: 'From street works.' },
    { title: 'Overview', items: [], reasoning: '' },
  ],
  reasoning: { approach: 'PCI and CPP cross-check' },
  model_used: 'example-model-2026-01',
  token_usage: { prompt_tokens: 5120, completion_tokens: 812 },
};
const post = (attributes: object, token = admin) =>
  api.request('POST', `/v3/agents/${agentId}/briefings`, {
    token,
    body: { data: { type: 'briefings', attributes } },
  });

describe('POST /v3/agents/{agent_id}/briefings', () => {
  it('stores the generated result and answers the briefing with status, section type and severity, meta times, organisation and agent', async () => {
    const res = await post(result);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toMatch(/\/v3\/briefings\//);
    const { data } = res.body;
    expect(data.type).toBe('briefings');
    expect(data.attributes).toMatchObject({
      summary: result.summary,
      status: 'ready',
      reasoning: result.reasoning,
      model_used: result.model_used,
      token_usage: result.token_usage,
    });
    expect(
      data.attributes.sections.map((s: { type: string; severity: string }) => [s.type, s.severity]),
    ).toEqual([
      ['risk', 'red'],
      ['action', 'amber'],
      ['compliance', 'green'],
      ['summary', 'green'],
    ]);
    expect(Object.keys(data.meta).sort()).toEqual(['created_at', 'generated_at', 'updated_at']);
    expect(data.relationships.organisation.data.id).toBe(tenant.org.id);
    expect(data.relationships.agent.data.id).toBe(agentId);
    expect(res.body.jsonapi).toBeDefined();
  });

  it('a briefing created without its result is generating, and gets it by PATCH (ready); a second result is 409', async () => {
    const res = await post({});
    expect(res.body.data.attributes.status).toBe('generating');
    expect(res.body.data.meta.generated_at).toBeNull();
    const id = res.body.data.id;
    const patch = (attributes: object) =>
      api.request('PATCH', `/v3/briefings/${id}`, {
        token: admin,
        body: { data: { type: 'briefings', id, attributes } },
      });
    const ready = await patch(result);
    expect(ready.status, ready.text).toBe(200);
    expect(ready.body.data.attributes.status).toBe('ready');
    expect((await patch(result)).status).toBe(409);
    expect((await patch({ status: 'archived' })).body.data.attributes.status).toBe('archived');
  });

  it('part of a result, an unknown member, a wrong type of value: 400 with pointers', async () => {
    const partial = await post({ summary: 'Only a summary' });
    expect(partial.status).toBe(400);
    expect(partial.body.errors.map((e: { detail: string }) => e.detail)).toContain(
      'sections is required with the rest of the result.',
    );
    const unknown = await post({ ...result, confidence: 0.9 });
    expect(unknown.body.errors[0].source.pointer).toBe('/data/attributes/confidence');
    const wrong = await post({ ...result, token_usage: { prompt_tokens: -1, completion_tokens: 1 } });
    expect(wrong.body.errors[0].source.pointer).toBe('/data/attributes/token_usage/prompt_tokens');
    const sectionType = await post({ ...result, sections: [{ ...result.sections[0], type: 'risk' }] });
    expect(sectionType.body.errors[0].source.pointer).toBe('/data/attributes/sections/0/type');
  });

  it('a result too large for one stored record is 413 and writes nothing (issue 15: DynamoDB refused it, 500)', async () => {
    const list = `/v3/agents/${agentId}/briefings`;
    const before = (await api.get(list, admin)).body.meta.pagination.counts.resources;
    // 50 sections of 10,000 characters of reasoning: 500 KB, inside the 1 MiB body limit.
    const sections = Array.from({ length: 50 }, (_, i) => ({
      title: `Section ${i}`,
      items: [],
      reasoning: 'r'.repeat(10_000),
    }));
    const res = await post({ ...result, sections });
    expect(res.status, res.text.slice(0, 300)).toBe(413);
    expect(res.body.errors[0]).toMatchObject({ status: '413', title: 'Payload too large' });
    expect((await api.get(list, admin)).body.meta.pagination.counts.resources).toBe(before);
  });

  it('free-form members hold no number the table cannot store exactly, and nest at most 32 levels: 400', async () => {
    const withItem = (item: object) => ({ ...result, sections: [{ ...result.sections[0], items: [item] }] });
    const beyond = await api.request('POST', `/v3/agents/${agentId}/briefings`, {
      token: admin,
      // 2^53 + 2 in JSON: JavaScript would read it as a different number.
      body: `{"data":{"type":"briefings","attributes":${JSON.stringify(withItem({ n: 0 })).replace('"n":0', '"n":9007199254740994')}}}`,
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expect(beyond.status).toBe(400);
    expect(beyond.body.errors[0].source).toEqual({ pointer: '/data/attributes/sections/0/items/0/n' });
    expect((await post(withItem({ n: 1e308 }))).status).toBe(400);
    expect((await post(withItem({ n: 1e-200 }))).status).toBe(400);
    const nest = (depth: number): object => (depth === 0 ? {} : { a: nest(depth - 1) });
    expect((await post(withItem(nest(40)))).status).toBe(400);
    expect((await post({ ...result, reasoning: nest(40) })).status).toBe(400);
  });

  it('an unknown or foreign agent is 404; a viewer cannot create (403) but can list and read', async () => {
    const other = await newTenant('Agents Other', 0);
    const foreign = await post(result, await api.token(other.admin));
    expect(foreign.status).toBe(404);
    const viewer = await api.token(tenant.viewer);
    expect((await post(result, viewer)).status).toBe(403);
    const ready = await post(result);
    expect(ready.status, ready.text).toBe(201);
    const list = await api.get(`/v3/agents/${agentId}/briefings?filter[status]=ready`, viewer);
    expect(list.status).toBe(200);
    expect(list.body.data.map((b: { id: string }) => b.id)).toContain(ready.body.data.id);
    expect(
      (await api.get(`/v3/briefings/${ready.body.data.id}?include=agent`, viewer)).body.included[0].type,
    ).toBe('agents');
  });
});

describe('agents', () => {
  it('CRUD under the organisation; the persona is required', async () => {
    const missing = await api.request('POST', `/v3/orgs/${tenant.org.id}/agents`, {
      token: admin,
      body: { data: { type: 'agents', attributes: { name: 'No persona', enabled: true } } },
    });
    expect(missing.body.errors[0].source.pointer).toBe('/data/attributes/persona');
    const patched = await api.request('PATCH', `/v3/orgs/${tenant.org.id}/agents/${agentId}`, {
      token: admin,
      body: { data: { type: 'agents', id: agentId, attributes: { enabled: false } } },
    });
    expect(patched.body.data.attributes.enabled).toBe(false);
    const list = await api.get(`/v3/orgs/${tenant.org.id}/agents?filter[enabled]=false`, admin);
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([agentId]);
  });
});
