/** GET /v3/cost-rollups, rule by rule (spec, Endpoints). Amounts are integer minor units (pence). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CostLine, type CostNode, rollUp, type SheetStatus } from '#functions/costs/rules/roll-up';
import { createServiceAccountClient } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { latestEvent } from '../support/event-stream';
import { queryScans } from '../support/query-scans';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
const ids: Record<string, string> = {};

const org = () => `/v3/orgs/${tenant.org.id}`;
const post = async (path: string, data: object) => {
  const res = await api.request('POST', `${org()}${path}`, { token, body: { data } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};
const one = (type: string, id: string | undefined) => ({ data: { type, id } });
const filter = (node: string | undefined, type: string, depth?: string) =>
  `and(eq(organisation,${tenant.org.id}),eq(cost_centre,${node}),eq(cost_centre_type,${type})${depth === undefined ? '' : `,eq(depth,${depth})`})`;
const rollups = (f: string, as = token) => api.get(`/v3/cost-rollups?filter=${encodeURIComponent(f)}`, as);

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Costs Org', 0);
  token = await api.token(tenant.admin);
  // contract → scheme → (wo1 → op1), wo2; the contract and the scheme have no sheet of their own.
  ids.contract = await post('/projects/scheme-contracts', {
    type: 'scheme-contracts',
    attributes: { name: 'South', code: 'S' },
  });
  ids.scheme = await post('/projects/schemes', {
    type: 'schemes',
    attributes: { name: 'Bridge deck', code: 'BD' },
    relationships: { contracts: { data: [{ type: 'scheme-contracts', id: ids.contract }] } },
  });
  ids.wo1 = await post('/projects/work-orders', {
    type: 'work-orders',
    attributes: { name: 'Waterproofing', code: 'WP' },
    relationships: { scheme: one('schemes', ids.scheme) },
  });
  ids.wo2 = await post('/projects/work-orders', {
    type: 'work-orders',
    attributes: { name: 'Joints', code: 'JT' },
    relationships: { scheme: one('schemes', ids.scheme) },
  });
  ids.op1 = await post('/projects/operations', {
    type: 'operations',
    attributes: { name: 'Membrane', code: 'M1' },
    relationships: { work_order: one('work-orders', ids.wo1) },
  });
  ids.labour = await post('/costs/rate-codes', {
    type: 'rate-codes',
    attributes: { code: 'LAB-GANG', name: 'Gang day', category: 'labour' },
  });
  ids.material = await post('/costs/rate-codes', {
    type: 'rate-codes',
    attributes: { code: 'MAT-MEM', name: 'Membrane m²', category: 'material' },
  });
  const version = (code: string | undefined, cost: number, charge: number, from = '2026-01-01T00:00:00Z') =>
    api.request('POST', `${org()}/costs/rate-codes/${code}/versions`, {
      token,
      body: {
        data: {
          type: 'rate-code-versions',
          attributes: {
            valid_from: from,
            cost: { amount: cost, currency: 'GBP' },
            charge: { amount: charge, currency: 'GBP' },
          },
        },
      },
    });
  await version(ids.labour, 80_000, 100_000);
  await version(ids.material, 1_500, 2_000);
  const sheet = (relationship: string, type: string, id: string | undefined, status: string) =>
    post('/costs/cost-sheets', {
      type: 'cost-sheets',
      attributes: { name: `${relationship} sheet`, status },
      relationships: { [relationship]: one(type, id) },
    });
  ids.sheetWo1 = await sheet('work_order', 'work-orders', ids.wo1, 'approved');
  ids.sheetOp1 = await sheet('operation', 'operations', ids.op1, 'completed');
  ids.sheetWo2 = await sheet('work_order', 'work-orders', ids.wo2, 'quoted');
  const line = (sheetId: string | undefined, code: string | undefined, quantity: number, kind = 'actual') =>
    post(`/costs/cost-sheets/${sheetId}/lines`, {
      type: 'cost-lines',
      attributes: { kind, quantity, at: '2026-06-01T00:00:00Z' },
      relationships: { rate_code: one('rate-codes', code) },
    });
  await line(ids.sheetWo1, ids.labour, 2); // cost 160,000 charge 200,000 (approved)
  await line(ids.sheetOp1, ids.material, 100); // cost 150,000 charge 200,000 (completed)
  await line(ids.sheetWo2, ids.labour, 1); // cost 80,000 charge 100,000 (quoted)
  await line(ids.sheetWo2, ids.labour, 3, 'estimate'); // estimate: cost 240,000
});
afterAll(() => api.close());

describe('GET /v3/cost-rollups', () => {
  it('rule 1: organisation, cost_centre and cost_centre_type together, else 400 CH.004.211', async () => {
    const res = await api.get(
      `/v3/cost-rollups?filter=${encodeURIComponent(`and(eq(organisation,${tenant.org.id}),eq(cost_centre,${ids.scheme}))`)}`,
      token,
    );
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'CH.004.211', source: { parameter: 'filter' } });
  });

  it('rule 2: supplying none of them returns an empty collection, with or without a depth', async () => {
    for (const path of [
      '/v3/cost-rollups',
      '/v3/cost-rollups?filter=and(eq(depth,all))',
      '/v3/cost-rollups?filter=and(eq(depth,self))',
    ]) {
      const res = await api.get(path, token);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta.pagination.counts.resources).toBe(0);
    }
  });

  it('rule 3: cost_centre_type is one of the four node types', async () => {
    expect((await rollups(filter(ids.scheme, 'projects'))).status).toBe(400);
  });

  it('rule 4: depth self (or omitted) returns exactly the named node', async () => {
    for (const f of [filter(ids.scheme, 'schemes'), filter(ids.scheme, 'schemes', 'self')]) {
      const res = await rollups(f);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([ids.scheme]);
    }
  });

  it('rule 5: depth all returns one element per node of the subtree, root included', async () => {
    const res = await rollups(filter(ids.contract, 'scheme-contracts', 'all'));
    expect(res.body.data.map((r: { id: string }) => r.id).sort()).toEqual(
      [ids.contract, ids.scheme, ids.wo1, ids.wo2, ids.op1].sort(),
    );
  });

  it('rule 6: any other depth, matched exactly in lowercase, is 400 CH.004.211', async () => {
    for (const f of [filter(ids.scheme, 'schemes', 'ALL'), 'and(eq(depth,ALL))']) {
      const res = await rollups(f);
      expect(res.status, f).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'CH.004.211', source: { parameter: 'filter' } });
    }
  });

  it('rule 7: every element carries parent id/type (null on the root), name, code and has_cost_sheet', async () => {
    const res = await rollups(filter(ids.scheme, 'schemes', 'all'));
    const byId = new Map(res.body.data.map((r: { id: string; attributes: object }) => [r.id, r.attributes]));
    expect(byId.get(ids.scheme)).toMatchObject({
      cost_centre_type: 'schemes',
      parent_cost_centre_id: null,
      parent_cost_centre_type: null,
      name: 'Bridge deck',
      code: 'BD',
      has_cost_sheet: false,
    });
    expect(byId.get(ids.op1)).toMatchObject({
      parent_cost_centre_id: ids.wo1,
      parent_cost_centre_type: 'work-orders',
      has_cost_sheet: true,
    });
  });

  it('rule 9: totals are sums of the lines’ snapshots; revising a rate later changes nothing', async () => {
    const before = (await rollups(filter(ids.scheme, 'schemes'))).body.data[0].attributes;
    expect(before.rolled).toEqual({
      cost: { amount: 390_000, currency: 'GBP' },
      charge: { amount: 500_000, currency: 'GBP' },
      profit: { amount: 110_000, currency: 'GBP' },
      categories: {
        material: { amount: 150_000, currency: 'GBP' },
        labour: { amount: 240_000, currency: 'GBP' },
        misc: { amount: 0, currency: 'GBP' },
        contractor: { amount: 0, currency: 'GBP' },
      },
    });
    expect(before.by_status.approved.cost.amount).toBe(160_000);
    expect(before.by_status.completed.cost.amount).toBe(150_000);
    expect(before.by_status.quoted.cost.amount).toBe(80_000);
    expect(before.estimated.rolled.cost.amount).toBe(240_000);
    await api.request('POST', `${org()}/costs/rate-codes/${ids.labour}/versions`, {
      token,
      body: {
        data: {
          type: 'rate-code-versions',
          attributes: {
            valid_from: '2026-09-01T00:00:00Z',
            cost: { amount: 999_999, currency: 'GBP' },
            charge: { amount: 999_999, currency: 'GBP' },
          },
        },
      },
    });
    const after = (await rollups(filter(ids.scheme, 'schemes'))).body.data[0].attributes;
    expect(after.rolled).toEqual(before.rolled);
  });

  it('rule 10: a node with no cost sheet still totals what lies beneath it', async () => {
    const res = await rollups(filter(ids.contract, 'scheme-contracts'));
    expect(res.body.data[0].attributes).toMatchObject({
      has_cost_sheet: false,
      direct: { cost: { amount: 0 } },
      rolled: { cost: { amount: 390_000 } },
    });
  });

  it('rule 8: soft-deleted nodes are left out of the walk, with what lies beneath them', async () => {
    await api.request('DELETE', `${org()}/projects/work-orders/${ids.wo1}`, { token });
    const res = await rollups(filter(ids.scheme, 'schemes', 'all'));
    expect(res.body.data.map((r: { id: string }) => r.id).sort()).toEqual([ids.scheme, ids.wo2].sort());
    expect(res.body.data.find((r: { id: string }) => r.id === ids.scheme).attributes.rolled.cost.amount).toBe(
      80_000,
    );
    await api.request('POST', `${org()}/projects/work-orders/${ids.wo1}/restore`, { token });
    expect((await rollups(filter(ids.scheme, 'schemes'))).body.data[0].attributes.rolled.cost.amount).toBe(
      390_000,
    );
  });

  it('rule 11: roll-ups are read-only: any write method is 405', async () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) {
      const res = await api.request(method, '/v3/cost-rollups', {
        token,
        body: { data: { type: 'cost-rollups' } },
      });
      expect(res.status, method).toBe(405);
    }
  });

  it('rule 12: the read needs permission to view cost lines, not cost sheets', async () => {
    const sheetsOnly = await api.request('POST', `${org()}/iam/roles`, {
      token,
      body: { data: { type: 'roles', attributes: { name: 'Sheets only', permissions: ['costs:view'] } } },
    });
    const linesOnly = await api.request('POST', `${org()}/iam/roles`, {
      token,
      body: { data: { type: 'roles', attributes: { name: 'Lines only', permissions: ['cost-lines:view'] } } },
    });
    const [a, b] = await Promise.all([
      createServiceAccountClient('sheets', [{ org_id: tenant.org.id, role: sheetsOnly.body.data.id }]),
      createServiceAccountClient('lines', [{ org_id: tenant.org.id, role: linesOnly.body.data.id }]),
    ]);
    expect((await rollups(filter(ids.scheme, 'schemes'), await api.token(a))).status).toBe(403);
    expect((await rollups(filter(ids.scheme, 'schemes'), await api.token(b))).status).toBe(200);
  });

  it('pagination over the elements', async () => {
    const res = await api.get(
      `/v3/cost-rollups?filter=${encodeURIComponent(filter(ids.contract, 'scheme-contracts', 'all'))}&page[limit]=2&page[offset]=2`,
      token,
    );
    expect(res.body.data).toHaveLength(2);
    expect(res.body.meta.pagination).toMatchObject({ counts: { resources: 5, pages: 3 }, current_page: 2 });
  });

  it('lines in two currencies under one node are never added up: 409 naming them', async () => {
    const euro = await post('/costs/rate-codes', {
      type: 'rate-codes',
      attributes: { code: 'EUR-PLANT', name: 'Plant (EUR)', category: 'contractor' },
    });
    await api.request('POST', `${org()}/costs/rate-codes/${euro}/versions`, {
      token,
      body: {
        data: {
          type: 'rate-code-versions',
          attributes: {
            valid_from: '2026-01-01T00:00:00Z',
            cost: { amount: 100, currency: 'EUR' },
            charge: { amount: 120, currency: 'EUR' },
          },
        },
      },
    });
    // A scheme of its own: a second currency under the shared scheme would make every other rule 409.
    const scheme = await post('/projects/schemes', {
      type: 'schemes',
      attributes: { name: 'Two currencies', code: 'TC' },
    });
    const sheet = await post('/costs/cost-sheets', {
      type: 'cost-sheets',
      attributes: { name: 'Mixed sheet', status: 'quoted' },
      relationships: { scheme: one('schemes', scheme) },
    });
    for (const code of [ids.labour, euro]) {
      await post(`/costs/cost-sheets/${sheet}/lines`, {
        type: 'cost-lines',
        attributes: { quantity: 1, at: '2026-06-01T00:00:00Z' },
        relationships: { rate_code: one('rate-codes', code) },
      });
    }
    const res = await rollups(filter(scheme, 'schemes'));
    expect(res.status).toBe(409);
    expect(res.body.errors[0].detail).toMatch(/GBP and EUR|EUR and GBP/);
  });
});

describe('money stays exact (issue 15: integers at and beyond 2^31 and 2^53)', () => {
  it('a rate amount is an integer of minor units up to 10^12, and so is a line’s; beyond, or fractions, are 400', async () => {
    const code = await post('/costs/rate-codes', {
      type: 'rate-codes',
      attributes: { code: 'BIG-RATE', name: 'Large works', category: 'contractor' },
    });
    const version = (cost: number) =>
      api.request('POST', `${org()}/costs/rate-codes/${code}/versions`, {
        token,
        body: {
          data: {
            type: 'rate-code-versions',
            attributes: {
              valid_from: '2026-01-01T00:00:00Z',
              cost: { amount: cost, currency: 'GBP' },
              charge: { amount: 1, currency: 'GBP' },
            },
          },
        },
      });
    for (const amount of [1e12 + 1, 2 ** 53, 2 ** 53 + 2, 1.5, -(2 ** 31)]) {
      const res = await version(amount);
      expect(res.status, String(amount)).toBe(400);
      expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/cost/amount' });
    }
    expect((await version(1e12)).status).toBe(201);
    // 10^6 units at 10^12 minor units would be 10^18, beyond exact integers (it was a 500): a line holds
    // at most 10^12, like a rate.
    const line = (quantity: number) =>
      api.request('POST', `${org()}/costs/cost-sheets/${ids.sheetWo2}/lines`, {
        token,
        body: {
          data: {
            type: 'cost-lines',
            attributes: { quantity, at: '2026-06-01T00:00:00Z' },
            relationships: { rate_code: one('rate-codes', code) },
          },
        },
      });
    const lines = async () =>
      (await api.get(`${org()}/costs/cost-lines?filter[cost_sheet]=${ids.sheetWo2}`, token)).body.meta
        .pagination.counts.resources;
    const before = await lines();
    expect(before).toBeGreaterThan(0);
    for (const quantity of [1e6, 2, 5e-324, 1e-7]) {
      const res = await line(quantity);
      expect(res.status, String(quantity)).toBe(400);
      expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/quantity' });
    }
    expect(await lines()).toBe(before);
  });
});

describe('roll-ups read nodes, not lines (issue 19): each node keeps its own lines’ sums', () => {
  const lines = async () => {
    const all: CostLine[] = [];
    const sheets = new Map<string, { status: SheetStatus; node: string }>();
    for (let offset = 0; ; offset += 100) {
      const res = await api.get(`${org()}/costs/cost-sheets?page[limit]=100&page[offset]=${offset}`, token);
      for (const s of res.body.data) {
        const node = Object.values(s.relationships as Record<string, { data: { id: string } | null }>)
          .map((r) => r.data?.id)
          .find((id) => id && id !== tenant.org.id);
        sheets.set(s.id, { status: s.attributes.status, node: String(node) });
      }
      if (res.body.data.length < 100) break;
    }
    for (let offset = 0; ; offset += 100) {
      const res = await api.get(`${org()}/costs/cost-lines?page[limit]=100&page[offset]=${offset}`, token);
      for (const l of res.body.data) {
        const sheet = sheets.get(l.relationships.cost_sheet.data.id);
        if (!sheet) continue;
        all.push({
          nodeId: sheet.node,
          kind: l.attributes.kind,
          sheetStatus: sheet.status,
          category: l.attributes.snapshot.category,
          cost: l.attributes.cost.amount,
          charge: l.attributes.charge.amount,
          currency: l.attributes.cost.currency,
        });
      }
      if (res.body.data.length < 100) break;
    }
    return all;
  };
  /** The roll-up from scratch: every line read, summed by the pure maths the kept sums must agree with. */
  const fromLines = async (root: string, type: string) => {
    const answer = (await rollups(filter(root, type, 'all'))).body.data as {
      id: string;
      attributes: Record<string, unknown> & { parent_cost_centre_id: string | null };
    }[];
    const nodes: CostNode[] = answer.map((r) => ({ id: r.id, parentId: r.attributes.parent_cost_centre_id }));
    const expected = rollUp(nodes, await lines(), root);
    return { answer, expected };
  };

  let scheme: string;
  const nodes: Record<string, string> = {};
  const sheets: Record<string, string> = {};
  const addLine = (sheet: string | undefined, code: string | undefined, quantity: number, kind = 'actual') =>
    api.request('POST', `${org()}/costs/cost-sheets/${sheet}/lines`, {
      token,
      body: {
        data: {
          type: 'cost-lines',
          attributes: { kind, quantity, at: '2026-06-01T00:00:00Z' },
          relationships: { rate_code: one('rate-codes', code) },
        },
      },
    });
  // A sheet's status moves by its transitions; its approval by someone other than its maker (four eyes).
  const move = (sheet: string | undefined, verb: string, as = token) =>
    api.request('POST', `${org()}/costs/cost-sheets/${sheet}/${verb}`, { token: as });
  let approver: string;

  beforeAll(async () => {
    approver = await api.token(
      await createServiceAccountClient('Sheet approver', [{ org_id: tenant.org.id, role: 'admin' }]),
    );
    scheme = await post('/projects/schemes', {
      type: 'schemes',
      attributes: { name: 'Kept sums', code: 'KS' },
    });
    nodes.a = await post('/projects/work-orders', {
      type: 'work-orders',
      attributes: { name: 'A' },
      relationships: { scheme: one('schemes', scheme) },
    });
    nodes.b = await post('/projects/work-orders', {
      type: 'work-orders',
      attributes: { name: 'B' },
      relationships: { scheme: one('schemes', scheme) },
    });
    nodes.a1 = await post('/projects/operations', {
      type: 'operations',
      attributes: { name: 'A1' },
      relationships: { work_order: one('work-orders', nodes.a) },
    });
    const sheet = (relationship: string, type: string, id: string | undefined, status: string) =>
      post('/costs/cost-sheets', {
        type: 'cost-sheets',
        attributes: { name: `${id} sheet`, status },
        relationships: { [relationship]: one(type, id) },
      });
    sheets.scheme = await sheet('scheme', 'schemes', scheme, 'quoted');
    sheets.a = await sheet('work_order', 'work-orders', nodes.a, 'approved');
    sheets.a1 = await sheet('operation', 'operations', nodes.a1, 'quoted');
    sheets.b = await sheet('work_order', 'work-orders', nodes.b, 'completed');
    const order = [sheets.scheme, sheets.a, sheets.a1, sheets.b];
    for (let i = 0; i < 16; i++) {
      const res = await addLine(
        order[i % 4],
        i % 3 ? ids.labour : ids.material,
        1 + (i % 5),
        i % 4 === 3 ? 'estimate' : 'actual',
      );
      expect(res.status, res.text).toBe(201);
    }
  });

  it('a sheet’s status change moves its actual lines’ sums between by_status buckets, estimates stay put', async () => {
    const before = (await rollups(filter(nodes.a, 'work-orders'))).body.data[0].attributes;
    expect(before.by_status.approved.cost.amount).toBeGreaterThan(0);
    expect((await move(sheets.a, 'complete')).status).toBe(200);
    const after = (await rollups(filter(nodes.a, 'work-orders'))).body.data[0].attributes;
    expect(after.by_status.completed.cost.amount - before.by_status.completed.cost.amount).toBe(
      before.by_status.approved.cost.amount - after.by_status.approved.cost.amount,
    );
    expect(after.by_status.approved.cost.amount).toBe(0);
    expect(after.rolled).toEqual(before.rolled);
    expect(after.estimated).toEqual(before.estimated);
  });

  it('after lines, status changes back and forth, and lines racing a status change, the kept sums equal the lines’', async () => {
    expect((await move(sheets.a1, 'approve', approver)).status).toBe(200);
    expect((await move(sheets.a1, 'requote')).status).toBe(200);
    // Lines racing a status change: each line lands in the bucket of the status it was written under,
    // or is refused (409) when the status changed between its read and its write; none is lost or misfiled.
    const raced = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => addLine(sheets.b, ids.labour, 1 + i)),
      move(sheets.b, 'reopen'),
      ...Array.from({ length: 4 }, (_, i) =>
        addLine(sheets.b, ids.material, 2 + i, i % 2 ? 'estimate' : 'actual'),
      ),
    ]);
    for (const res of raced) expect([200, 201, 409], res.text).toContain(res.status);
    const { answer, expected } = await fromLines(scheme, 'schemes');
    expect(answer).toHaveLength(4);
    for (const element of answer) {
      const { direct, rolled, by_status, estimated } = element.attributes;
      expect({ direct, rolled, by_status, estimated }, element.id).toEqual(expected.get(element.id));
    }
  });

  it('a roll-up reads one item per node of the subtree (and the root), however many lines lie beneath', async () => {
    const all = filter(scheme, 'schemes', 'all');
    const { result, scanned } = await queryScans(
      (value) => value.startsWith('TREE#'),
      () => rollups(all),
    );
    expect(result.status).toBe(200);
    expect((await lines()).length).toBeGreaterThan(16);
    expect(scanned).toEqual([4]);
  });

  it('no line is costed to a deleted node: 409, and nothing is written; restored, it takes lines again', async () => {
    const count = async () =>
      (await api.get(`${org()}/costs/cost-lines?filter[cost_sheet]=${sheets.a1}`, token)).body.meta.pagination
        .counts.resources;
    const before = await count();
    expect((await api.request('DELETE', `${org()}/projects/operations/${nodes.a1}`, { token })).status).toBe(
      204,
    );
    const refused = await addLine(sheets.a1, ids.labour, 1);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.errors[0].detail).toMatch(/deleted/);
    expect(await count()).toBe(before);
    expect(
      (await api.request('POST', `${org()}/projects/operations/${nodes.a1}/restore`, { token })).status,
    ).toBe(200);
    expect((await addLine(sheets.a1, ids.labour, 1)).status).toBe(201);
    const { answer, expected } = await fromLines(scheme, 'schemes');
    for (const element of answer) {
      const { direct, rolled, by_status, estimated } = element.attributes;
      expect({ direct, rolled, by_status, estimated }, element.id).toEqual(expected.get(element.id));
    }
  });
});

describe('a cost sheet’s declared moves (approve, complete, reopen, requote)', () => {
  let approver: string;
  const sheetPath = (id: string) => `${org()}/costs/cost-sheets/${id}`;
  const newSheet = () =>
    post('/costs/cost-sheets', {
      type: 'cost-sheets',
      attributes: { name: 'Moves' },
      relationships: { work_order: one('work-orders', ids.wo1) },
    });
  const move = (id: string, verb: string, as = token, headers: Record<string, string> = {}) =>
    api.request('POST', `${sheetPath(id)}/${verb}`, { token: as, headers });
  const transitions = async (id: string, as = token) =>
    (await api.get(sheetPath(id), as)).body.data.meta.allowed_transitions;

  beforeAll(async () => {
    approver = await api.token(
      await createServiceAccountClient('Moves approver', [{ org_id: tenant.org.id, role: 'admin' }]),
    );
  });

  it('allowed_transitions: the maker of a quote sees approve refused by four eyes, another approver sees it open', async () => {
    const id = await newSheet();
    const mine = await transitions(id);
    expect(mine).toContainEqual({
      verb: 'approve',
      allowed: false,
      reasons: ['Nobody approves their own cost sheet: another holder of costs:manage approves it.'],
    });
    expect(mine).toContainEqual({
      verb: 'complete',
      allowed: false,
      reasons: ['A cost sheet quoted cannot be completed.'],
    });
    expect(await transitions(id, approver)).toContainEqual({ verb: 'approve', allowed: true, reasons: [] });
  });

  it('four eyes: whoever made a sheet cannot approve it (403); another holder of costs:manage can', async () => {
    const id = await newSheet();
    const own = await move(id, 'approve');
    expect(own.status).toBe(403);
    expect(own.body.errors[0].detail).toMatch(/Nobody approves their own cost sheet/);
    const approved = await move(id, 'approve', approver);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.data.attributes.status).toBe('approved');
  });

  it('a move its state does not allow is 409 STATE.001 with the state, the verb and the verbs open', async () => {
    const id = await newSheet();
    const refused = await move(id, 'complete');
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'STATE.001',
      meta: {
        state: 'quoted',
        verb: 'complete',
        allowed: [],
        reasons: ['A cost sheet quoted cannot be completed.'],
      },
    });
  });

  it('If-Match on a move: a stale tag is 412 and the sheet stays where it was', async () => {
    const id = await newSheet();
    const read = await api.get(sheetPath(id), approver);
    const stale = read.headers.get('etag') ?? '';
    expect(
      (
        await api.request('PATCH', sheetPath(id), {
          token,
          body: { data: { type: 'cost-sheets', id, attributes: { name: 'Renamed' } } },
        })
      ).status,
    ).toBe(200);
    const refused = await move(id, 'approve', approver, { 'If-Match': stale });
    expect(refused.status).toBe(412);
    expect(refused.body.errors[0].code).toBe('PRECONDITION.001');
    expect((await api.get(sheetPath(id), token)).body.data.attributes.status).toBe('quoted');
  });

  it('a PATCH naming status is 400 at it, naming the moves instead', async () => {
    const id = await newSheet();
    const res = await api.request('PATCH', sheetPath(id), {
      token,
      body: { data: { type: 'cost-sheets', id, attributes: { status: 'approved' } } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/status');
    expect(res.body.errors[0].detail).toMatch(/POST …\/approve/);
  });

  it('each move is one event carrying its verb, from and to', async () => {
    const id = await newSheet();
    expect((await move(id, 'approve', approver)).status).toBe(200);
    const event = await latestEvent(tenant.org.id, 'cost-sheet.approved', id);
    expect(event.data).toMatchObject({ transition: { verb: 'approve', from: 'quoted', to: 'approved' } });
  });
});
