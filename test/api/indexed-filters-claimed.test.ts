/**
 * Claimed filters (issue 42, item 1: "`serial` through its uniqueness claim"): a code unique in the
 * organisation is claimed by an item naming its holder, so `filter[code]` on job roles and qualification
 * specifications reads that claim and the record it names (two items, two calls) whatever the collection's
 * size, and answers as the partition's filter did: exact equality, the other filters applied, another
 * organisation's code never seen. Their `filter[name]` is read where `sort=name` reads it (`lsi1`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRoles } from '#functions/people/job-roles';
import { qualificationSpecifications } from '#functions/qualifications/definitions';
import { keyFrom } from '#shared/data/access-patterns';
import { bulkPut } from '#shared/data/bulk';
import type { StoredResource } from '#shared/data/stored-resource';
import type { ResourceDefinition } from '#shared/engine/declaration';
import { newRecord } from '#shared/engine/record-writes';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { expectSameAnswers } from '../support/cursor-walk';
import { expectCursorPagesRead, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const COUNT = 150;
const MINUTE = 60_000;
const START = Date.UTC(2026, 5, 1);

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let token: string;
let otherToken: string;

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([
    newTenant('Claimed filters', 0),
    newTenant('Claimed filters other', 0),
  ]);
  [token, otherToken] = await Promise.all([api.token(tenant.admin), api.token(other.admin)]);
}, 60_000);
afterAll(() => api.close());

/** Records stored as their creates store them: each with its count and its code's claim (`holder_id`). */
const seed = async (
  definition: ResourceDefinition,
  orgId: string,
  attributes: (i: number) => Record<string, unknown>,
  count = COUNT,
) => {
  const records = Array.from({ length: count }, (_, i) =>
    newRecord(definition, orgId, { attributes: attributes(i) }, new Date(START + i * MINUTE)),
  );
  await bulkPutCounted(records);
  const pattern = definition.keys['code-claim'];
  if (!pattern) throw new Error(`${definition.type} declares no code claim`);
  await bulkPut(
    records.map((r) => ({
      ...keyFrom(pattern, { org_id: orgId, code: String(r.attributes.code) } as never),
      holder_id: r.id,
    })),
  );
  return records;
};

const code = (prefix: string, i: number) => `${prefix}-${String(i).padStart(3, '0')}`;
const idsWhere = (records: StoredResource[], keep: (r: StoredResource) => boolean) =>
  records.filter(keep).map((r) => r.id);

describe('job roles: filter[code] is read by its claim, filter[name] where the name sorts', () => {
  let roles: StoredResource[];
  const path = (orgId = tenant.org.id) => `/v3/orgs/${orgId}/people/job-roles`;
  beforeAll(async () => {
    roles = await seed(jobRoles, tenant.org.id, (i) => ({
      name: `Trade ${String(i % 15).padStart(2, '0')}`,
      code: code('JR', i),
    }));
  });

  it('filter[code] answers as the partition filter did: one match, exact (case and all), the other filters applied', async () => {
    await expectSameAnswers(
      api,
      token,
      path(),
      'filter[code]=JR-042',
      idsWhere(roles, (r) => r.attributes.code === 'JR-042'),
    );
    await expectSameAnswers(api, token, path(), 'filter[code]=jr-042', []);
    await expectSameAnswers(api, token, path(), 'filter[code]=JR-999', []);
    await expectSameAnswers(api, token, path(), 'filter[code]=JR-042&filter[name]=Trade 12', [
      ...idsWhere(roles, (r) => r.attributes.code === 'JR-042'),
    ]);
    await expectSameAnswers(api, token, path(), 'filter[code]=JR-042&filter[name]=Trade 01', []);
  });

  it('a role made through the API is found by the claim its create wrote', async () => {
    const res = await api.request('POST', path(), {
      token,
      body: { data: { type: 'job-roles', attributes: { name: 'Crane operator', code: 'CRANE-1' } } },
    });
    expect(res.status, res.text).toBe(201);
    await expectSameAnswers(api, token, path(), 'filter[code]=CRANE-1', [res.body.data.id]);
  });

  it('filter[code] reads the claim and its record: two items in two calls at any page size', async () => {
    const page = await measuredGet(api, token, `${path()}?filter[code]=JR-117&page[limit]=25`);
    expect(page.body.data.map((r: { id: string }) => r.id)).toEqual(
      idsWhere(roles, (r) => r.attributes.code === 'JR-117'),
    );
    expect(page.items).toBeLessThanOrEqual(2);
    expect(page.calls).toBe(2);
    await expectCursorPagesRead((p) => measuredGet(api, token, p), [`${path()}?filter[code]=JR-117`], {
      limits: [1, 5],
    });
    // The page size named, so the organisation's settings are not read. No claim: one read, of nothing.
    const none = await measuredGet(api, token, `${path()}?filter[code]=JR-999&page[limit]=25`);
    expect(none.items).toBe(0);
    expect(none.calls).toBe(1);
  });

  it("another organisation's claim of the same code is never read: each sees its own holder", async () => {
    const [theirs] = await seed(jobRoles, other.org.id, () => ({ name: 'Trade 99', code: 'JR-042' }), 1);
    await expectSameAnswers(api, otherToken, path(other.org.id), 'filter[code]=JR-042', [theirs?.id ?? '']);
    await expectSameAnswers(
      api,
      token,
      path(),
      'filter[code]=JR-042',
      idsWhere(roles, (r) => r.attributes.code === 'JR-042'),
    );
  });

  it('a code longer than any key names nothing: 200 and an empty page, never a 5xx', async () => {
    const res = await api.get(`${path()}?filter[code]=${'X'.repeat(1100)}`, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('filter[name] (shared by ten) is read from lsi1, a cursor page reading what it returns', async () => {
    const named = roles.filter((r) => r.attributes.name === 'Trade 07').map((r) => r.id);
    await expectSameAnswers(api, token, path(), 'filter[name]=Trade 07', named, { ordered: false });
    await expectCursorPagesRead((p) => measuredGet(api, token, p), [`${path()}?filter[name]=Trade 07`], {
      limits: [2, 5],
      full: true,
    });
  });

  it('a created_at window (which would otherwise be refused alone) is a key range on the ids', async () => {
    const [since, until] = [140, 149].map((i) => new Date(START + i * MINUTE).toISOString());
    const expected = idsWhere(roles, (r) => String(r.meta.created_at) >= String(since));
    const window = `filter[created_at.since]=${since}&filter[created_at.until]=${until}`;
    await expectSameAnswers(api, token, path(), `${window}&sort=created_at`, expected);
  });

  it('meta.features names every filter indexed, so none is refused alone', async () => {
    const res = await api.get(`${path()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter.indexed).toEqual(
      res.body.meta.features.params.filter.options,
    );
  });
});

describe('qualification specifications: filter[code] is read by its claim', () => {
  let specifications: StoredResource[];
  const path = () => `/v3/orgs/${tenant.org.id}/qualifications/specifications`;
  beforeAll(async () => {
    specifications = await seed(qualificationSpecifications, tenant.org.id, (i) => ({
      name: `Competence ${String(i % 15).padStart(2, '0')}`,
      code: code('QS', i),
      rule: { qualification_type: '019e8000-0000-7000-8000-000000000001' },
    }));
  });

  it('filter[code] answers its one match, reading the claim and the record in two calls', async () => {
    const expected = idsWhere(specifications, (r) => r.attributes.code === 'QS-088');
    await expectSameAnswers(api, token, path(), 'filter[code]=QS-088', expected);
    await expectCursorPagesRead((p) => measuredGet(api, token, p), [`${path()}?filter[code]=QS-088`], {
      limits: [1, 5],
    });
    const page = await measuredGet(api, token, `${path()}?filter[code]=QS-088&page[limit]=25`);
    expect(page.items).toBeLessThanOrEqual(2);
  });

  it('filter[name] is read from lsi1', async () => {
    const named = idsWhere(specifications, (r) => r.attributes.name === 'Competence 03');
    await expectSameAnswers(api, token, path(), 'filter[name]=Competence 03', named, { ordered: false });
    await expectCursorPagesRead((p) => measuredGet(api, token, p), [`${path()}?filter[name]=Competence 03`], {
      limits: [2, 5],
      full: true,
    });
  });
});
