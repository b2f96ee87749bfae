/**
 * The last reference collections' filters from indexes (issue 42, item 1): a rate code's `category` and a
 * customer contact's `association` on a `gsi2` entry each (their local indexes keep the two sorts), kept
 * in the list's default order (code, last name) so a page in it reads what it returns, counted for offset
 * totals; a rate code's unique `code` by its claim; a contact's `email` and `last_name` where their sorts
 * read them, and a creation window on the ids; a qualification type's `kind` the same way (in name order),
 * its code by its claim; a team's modification window (incremental sync) on its `updated_at` sort's `lsi2`,
 * its name on its sort's `lsi1`; a customer account's `kind` (on `lsi2`) and `reference` (on `gsi2`) and an
 * import template's `target` (on `lsi2`), each in name order. Each answers as the partition's filter did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateCodes } from '#functions/costs/definitions';
import { customerAccounts, customerContacts } from '#functions/customers/definitions';
import { teams } from '#functions/people/teams';
import { importTemplates } from '#functions/places/definitions';
import { qualificationTypes } from '#functions/qualifications/definitions';
import { keyFrom } from '#shared/data/access-patterns';
import { bulkPut } from '#shared/data/bulk';
import { compareCodePoints, compareCollated } from '#shared/data/collation';
import { valueAt } from '#shared/data/collection-query';
import type { StoredResource } from '#shared/data/stored-resource';
import { newRecord } from '#shared/engine/record-writes';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { expectSameAnswers } from '../support/cursor-walk';
import { expectCursorPagesRead, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const COUNT = 160;
const MINUTE = 60_000;
const START = Date.UTC(2026, 6, 1);
const CATEGORIES = ['material', 'labour', 'contractor'];
const ASSOCIATIONS = ['occupier', 'owner', 'tenant', 'landlord'];
const SURNAMES = ['Smith', 'smith', 'Smith Jones', 'Ahmed', 'ahmed', "O'Brien", 'Zhou', 'Évans', 'evans'];

let api: TestApi;
let tenant: Tenant;
let other: Tenant;
let token: string;
let codes: StoredResource[];
let contacts: StoredResource[];

/** Rate codes (every twentieth `misc`, the rest in three categories) and contacts, in two organisations. */
const seed = async (orgId: string) => {
  const made = Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      rateCodes,
      orgId,
      {
        attributes: {
          // Mixed case, so the code order is the collation's, not the bytes'.
          code: `${i % 2 ? 'rc' : 'RC'}-${String((i * 37) % COUNT).padStart(3, '0')}`,
          name: `Rate ${String(i % 11).padStart(2, '0')}`,
          category: i % 20 === 0 ? 'misc' : (CATEGORIES[i % 3] as string),
        },
      },
      new Date(START + i * MINUTE),
    ),
  );
  const people = Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      customerContacts,
      orgId,
      {
        attributes: {
          association: i % 25 === 0 ? 'agent' : (ASSOCIATIONS[i % 4] as string),
          first_name: `First ${i}`,
          last_name: SURNAMES[i % SURNAMES.length] as string,
          ...(i % 3 === 0 && { email: `person${i % 40}@example.com` }),
        },
        rels: { accounts: [] },
      },
      new Date(START + i * MINUTE),
    ),
  );
  await bulkPutCounted([...made, ...people]);
  const claim = rateCodes.keys['code-claim'];
  if (!claim) throw new Error('rate codes declare no code claim');
  await bulkPut(
    made.map((r) => ({
      ...keyFrom(claim, { org_id: orgId, code: String(r.attributes.code) } as never),
      holder_id: r.id,
    })),
  );
  return { made, people };
};

beforeAll(async () => {
  api = await startTestApi();
  [tenant, other] = await Promise.all([newTenant('Reference filters', 0), newTenant('Reference other', 0)]);
  token = await api.token(tenant.admin);
  ({ made: codes, people: contacts } = await seed(tenant.org.id));
  // The same values in another organisation: never in this one's answers.
  await seed(other.org.id);
}, 60_000);
afterAll(() => api.close());

/** The ids an unindexed read gives: the matches in the API's collation of the sort, then by id. */
const inOrder = (
  records: StoredResource[],
  keep: (r: StoredResource) => boolean,
  path: string,
  down = false,
) =>
  records
    .filter(keep)
    .sort(
      (a, b) =>
        (down ? -1 : 1) *
        (compareCollated(valueAt(a, path), valueAt(b, path)) || compareCodePoints(a.id, b.id)),
    )
    .map((r) => r.id);

const RATE_CODES = () => `/v3/orgs/${tenant.org.id}/costs/rate-codes`;
const CONTACTS = () => `/v3/orgs/${tenant.org.id}/customers/contacts`;
const category = (value: string) => (r: StoredResource) => r.attributes.category === value;
const association = (value: string) => (r: StoredResource) => r.attributes.association === value;

describe('rate codes: category on gsi2 in code order, code by its claim', () => {
  it('filter[category] answers as the partition filter did, in every sort, by offset (with its total) and by cursor', async () => {
    const code = 'attributes.code';
    await expectSameAnswers(
      api,
      token,
      RATE_CODES(),
      'filter[category]=misc',
      inOrder(codes, category('misc'), code),
    );
    await expectSameAnswers(
      api,
      token,
      RATE_CODES(),
      'filter[category]=labour',
      inOrder(codes, category('labour'), code),
    );
    await expectSameAnswers(
      api,
      token,
      RATE_CODES(),
      'filter[category]=labour&sort=-code',
      inOrder(codes, category('labour'), code, true),
    );
    await expectSameAnswers(
      api,
      token,
      RATE_CODES(),
      'filter[category]=material&sort=name',
      inOrder(codes, category('material'), 'attributes.name'),
      // Rate codes that tie on the name come in no order the test should rely on.
      { ordered: false },
    );
  });

  it('filter[code] answers its one holder, exactly, reading the claim and the record', async () => {
    const holder = codes[3] as StoredResource;
    const code = String(holder.attributes.code);
    expect(code).toMatch(/^rc-/);
    await expectSameAnswers(api, token, RATE_CODES(), `filter[code]=${code}`, [holder.id]);
    await expectSameAnswers(api, token, RATE_CODES(), `filter[code]=${code.toUpperCase()}`, []);
    await expectSameAnswers(
      api,
      token,
      RATE_CODES(),
      `filter[code]=${code}&filter[category]=${holder.attributes.category}`,
      [holder.id],
    );
    const page = await measuredGet(api, token, `${RATE_CODES()}?filter[code]=${code}&page[limit]=25`);
    expect([page.items, page.calls]).toEqual([2, 2]);
  });

  it('a cursor page in code order reads at most 1.1× what it returns, in the same calls at two page sizes', async () => {
    await expectCursorPagesRead(
      (path) => measuredGet(api, token, path),
      [`${RATE_CODES()}?filter[category]=misc`, `${RATE_CODES()}?filter[category]=labour&sort=-code`],
      { limits: [2, 5], full: true },
    );
  });

  it("an offset page's total is the category's count: the page and the counter, never every match", async () => {
    const page = await measuredGet(api, token, `${RATE_CODES()}?filter[category]=labour&page[limit]=5`);
    expect(page.body.meta.pagination.counts.resources).toBe(codes.filter(category('labour')).length);
    expect(page.items).toBeLessThanOrEqual(6);
  });

  it('meta.features names every filter indexed', async () => {
    const res = await api.get(`${RATE_CODES()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter.indexed).toEqual(
      res.body.meta.features.params.filter.options,
    );
  });
});

describe('customer contacts: association on gsi2 in last-name order, e-mail and last name on their sorts', () => {
  const lastName = 'attributes.last_name';

  it('filter[association] answers as the partition filter did, in every sort, by offset and by cursor', async () => {
    await expectSameAnswers(
      api,
      token,
      CONTACTS(),
      'filter[association]=agent',
      inOrder(contacts, association('agent'), lastName),
    );
    await expectSameAnswers(
      api,
      token,
      CONTACTS(),
      'filter[association]=owner',
      inOrder(contacts, association('owner'), lastName),
    );
    await expectSameAnswers(
      api,
      token,
      CONTACTS(),
      'filter[association]=tenant&sort=-last_name',
      inOrder(contacts, association('tenant'), lastName, true),
    );
    await expectSameAnswers(
      api,
      token,
      CONTACTS(),
      'filter[association]=landlord&sort=email',
      inOrder(contacts, association('landlord'), 'attributes.email'),
      { ordered: false },
    );
  });

  it('filter[last_name], filter[email] and a creation window answer as before', async () => {
    const named = (r: StoredResource) => r.attributes.last_name === 'Smith';
    await expectSameAnswers(
      api,
      token,
      CONTACTS(),
      'filter[last_name]=Smith',
      inOrder(contacts, named, lastName),
      // The Smiths tie on the sort: no order a test should rely on.
      { ordered: false },
    );
    const mailed = (r: StoredResource) => r.attributes.email === 'person9@example.com';
    await expectSameAnswers(
      api,
      token,
      CONTACTS(),
      'filter[email]=person9@example.com',
      inOrder(contacts, mailed, lastName),
      { ordered: false },
    );
    const since = new Date(START + 150 * MINUTE).toISOString();
    const recent = (r: StoredResource) => String(r.meta.created_at) >= since;
    await expectSameAnswers(
      api,
      token,
      CONTACTS(),
      `filter[created_at.since]=${since}&sort=created_at`,
      inOrder(contacts, recent, 'meta.created_at'),
    );
  });

  it('a cursor page reads at most 1.1× what it returns, in the same calls at two page sizes', async () => {
    await expectCursorPagesRead(
      (path) => measuredGet(api, token, path),
      [
        `${CONTACTS()}?filter[association]=agent`,
        `${CONTACTS()}?filter[association]=owner&sort=-last_name`,
        `${CONTACTS()}?filter[last_name]=Zhou`,
      ],
      { limits: [2, 5], full: true },
    );
  });

  it('meta.features names every filter indexed', async () => {
    const res = await api.get(`${CONTACTS()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter.indexed).toEqual(
      res.body.meta.features.params.filter.options,
    );
  });
});

describe('qualification types: kind on gsi2 in name order, code by its claim, name on its sort', () => {
  let types: StoredResource[];
  const TYPES = () => `/v3/orgs/${tenant.org.id}/qualifications/types`;
  const name = 'attributes.name';
  const kind = (value: string) => (r: StoredResource) => r.attributes.kind === value;
  beforeAll(async () => {
    types = Array.from({ length: COUNT }, (_, i) =>
      newRecord(
        qualificationTypes,
        tenant.org.id,
        {
          attributes: {
            kind: i % 20 === 0 ? 'registration' : (['assessment', 'training', 'induction'][i % 3] as string),
            name: `${SURNAMES[i % SURNAMES.length]} card`,
            code: `QT-${String(i).padStart(3, '0')}`,
            has_expiry: false,
          },
        },
        new Date(START + i * MINUTE),
      ),
    );
    await bulkPutCounted(types);
    const claim = qualificationTypes.keys['code-claim'];
    if (!claim) throw new Error('qualification types declare no code claim');
    await bulkPut(
      types.map((r) => ({
        ...keyFrom(claim, { org_id: tenant.org.id, code: String(r.attributes.code) } as never),
        holder_id: r.id,
      })),
    );
  });

  it('filter[kind], filter[code] and filter[name] answer as the partition filter did', async () => {
    await expectSameAnswers(
      api,
      token,
      TYPES(),
      'filter[kind]=registration',
      inOrder(types, kind('registration'), name),
    );
    await expectSameAnswers(
      api,
      token,
      TYPES(),
      'filter[kind]=training&sort=-name',
      inOrder(types, kind('training'), name, true),
    );
    const holder = types[17] as StoredResource;
    await expectSameAnswers(api, token, TYPES(), 'filter[code]=QT-017', [holder.id]);
    const named = (r: StoredResource) => r.attributes.name === 'Zhou card';
    await expectSameAnswers(api, token, TYPES(), 'filter[name]=Zhou card', inOrder(types, named, name), {
      ordered: false,
    });
  });

  it('a cursor page reads at most 1.1× what it returns, and filter[code] its claim and record', async () => {
    await expectCursorPagesRead(
      (path) => measuredGet(api, token, path),
      [`${TYPES()}?filter[kind]=registration`, `${TYPES()}?filter[kind]=induction&sort=-name`],
      { limits: [2, 5], full: true },
    );
    const page = await measuredGet(api, token, `${TYPES()}?filter[code]=QT-101&page[limit]=25`);
    expect([page.items, page.calls]).toEqual([2, 2]);
  });

  it('meta.features names every filter indexed', async () => {
    const res = await api.get(`${TYPES()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter.indexed).toEqual(
      res.body.meta.features.params.filter.options,
    );
  });
});

describe('teams: a modification window on the updated_at sort, name on its sort, creation on the ids', () => {
  let made: StoredResource[];
  const TEAMS = () => `/v3/orgs/${tenant.org.id}/people/teams`;
  const updated = 'meta.updated_at';
  const at = (minute: number) => new Date(START + minute * MINUTE).toISOString();
  /** A team made at minute `i` and last changed at a minute of its own, so the two orders differ. */
  const team = (orgId: string, i: number) =>
    newRecord(
      teams,
      orgId,
      {
        attributes: { name: `${SURNAMES[i % SURNAMES.length]} team`, description: '' },
        rels: { members: [], schemas: [] },
        meta: { updated_at: at(COUNT + ((i * 37) % COUNT)) },
      },
      new Date(START + i * MINUTE),
    );
  const within = (since: string, until?: string) => (r: StoredResource) =>
    String(r.meta.updated_at) >= since && (until === undefined || String(r.meta.updated_at) <= until);
  beforeAll(async () => {
    made = Array.from({ length: COUNT }, (_, i) => team(tenant.org.id, i));
    // The same teams in another organisation: never in this one's answers.
    await bulkPutCounted([...made, ...Array.from({ length: COUNT }, (_, i) => team(other.org.id, i))]);
  });

  it('filter[updated_at.since|until] answers as the partition filter did, in every sort', async () => {
    const since = at(COUNT + 140);
    await expectSameAnswers(
      api,
      token,
      TEAMS(),
      `filter[updated_at.since]=${since}&sort=updated_at`,
      inOrder(made, within(since), updated),
    );
    await expectSameAnswers(
      api,
      token,
      TEAMS(),
      `filter[updated_at.since]=${at(COUNT + 20)}&filter[updated_at.until]=${at(COUNT + 60)}&sort=-updated_at`,
      inOrder(made, within(at(COUNT + 20), at(COUNT + 60)), updated, true),
    );
    // In the list's default order (name), where teams tie on the name.
    await expectSameAnswers(
      api,
      token,
      TEAMS(),
      `filter[updated_at.since]=${since}`,
      inOrder(made, within(since), 'attributes.name'),
      { ordered: false },
    );
  });

  it('filter[name] and a creation window answer as before, alone and beside a modification window', async () => {
    const named = (r: StoredResource) => r.attributes.name === 'Zhou team';
    await expectSameAnswers(
      api,
      token,
      TEAMS(),
      'filter[name]=Zhou team',
      inOrder(made, named, 'attributes.name'),
      {
        ordered: false,
      },
    );
    const since = at(COUNT + 80);
    await expectSameAnswers(
      api,
      token,
      TEAMS(),
      `filter[name]=Zhou team&filter[updated_at.since]=${since}&sort=updated_at`,
      inOrder(made, (r) => named(r) && within(since)(r), updated),
    );
    const created = at(150);
    await expectSameAnswers(
      api,
      token,
      TEAMS(),
      `filter[created_at.since]=${created}&sort=created_at`,
      inOrder(made, (r) => String(r.meta.created_at) >= created, 'meta.created_at'),
    );
  });

  it('a sync walk (sort=updated_at) reads at most 1.1× a cursor page, in the same calls at two page sizes', async () => {
    await expectCursorPagesRead(
      (path) => measuredGet(api, token, path),
      [
        `${TEAMS()}?filter[updated_at.since]=${at(COUNT + 100)}&sort=updated_at`,
        `${TEAMS()}?filter[updated_at.until]=${at(COUNT + 100)}&sort=-updated_at`,
      ],
      { limits: [2, 5], full: true },
    );
  });

  it('in another sort a modification window reads its own matches, never the organisation’s teams', async () => {
    const since = at(COUNT + 150);
    const page = await measuredGet(
      api,
      token,
      `${TEAMS()}?filter[updated_at.since]=${since}&page[limit]=5&page[cursor]=`,
    );
    expect(page.body.data).toHaveLength(5);
    expect(page.items).toBeLessThanOrEqual(made.filter(within(since)).length);
  });

  it('meta.features names every filter indexed', async () => {
    const res = await api.get(`${TEAMS()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter.indexed).toEqual(
      res.body.meta.features.params.filter.options,
    );
  });
});

describe('customer accounts: kind on lsi2 and reference on gsi2, each in name order', () => {
  let accounts: StoredResource[];
  const ACCOUNTS = () => `/v3/orgs/${tenant.org.id}/customers/accounts`;
  const name = 'attributes.name';
  const kind = (value: string) => (r: StoredResource) => r.attributes.kind === value;
  const account = (orgId: string, i: number) =>
    newRecord(
      customerAccounts,
      orgId,
      {
        attributes: {
          name: `${SURNAMES[i % SURNAMES.length]} estate`,
          kind: i % 20 === 0 ? 'public' : (['domestic', 'commercial'][i % 2] as string),
          // One in four without a reference; the rest share one of 40.
          ...(i % 4 !== 0 && { reference: `ACC-${String(i % 40).padStart(2, '0')}` }),
        },
      },
      new Date(START + i * MINUTE),
    );
  beforeAll(async () => {
    accounts = Array.from({ length: COUNT }, (_, i) => account(tenant.org.id, i));
    await bulkPutCounted([...accounts, ...Array.from({ length: COUNT }, (_, i) => account(other.org.id, i))]);
  });

  it('filter[kind], filter[reference] and a creation window answer as the partition filter did', async () => {
    await expectSameAnswers(
      api,
      token,
      ACCOUNTS(),
      'filter[kind]=public',
      inOrder(accounts, kind('public'), name),
      {
        ordered: false,
      },
    );
    await expectSameAnswers(
      api,
      token,
      ACCOUNTS(),
      'filter[kind]=domestic&sort=-name',
      inOrder(accounts, kind('domestic'), name, true),
      { ordered: false },
    );
    const referenced = (r: StoredResource) => r.attributes.reference === 'ACC-07';
    await expectSameAnswers(
      api,
      token,
      ACCOUNTS(),
      'filter[reference]=ACC-07',
      inOrder(accounts, referenced, name),
      { ordered: false },
    );
    await expectSameAnswers(
      api,
      token,
      ACCOUNTS(),
      'filter[reference]=ACC-07&filter[kind]=commercial',
      inOrder(accounts, (r) => referenced(r) && kind('commercial')(r), name),
      { ordered: false },
    );
    await expectSameAnswers(api, token, ACCOUNTS(), 'filter[reference]=acc-07', []);
    const since = new Date(START + 150 * MINUTE).toISOString();
    await expectSameAnswers(
      api,
      token,
      ACCOUNTS(),
      `filter[created_at.since]=${since}&sort=created_at`,
      inOrder(accounts, (r) => String(r.meta.created_at) >= since, 'meta.created_at'),
    );
  });

  it('a cursor page in name order reads at most 1.1× what it returns, in the same calls at two page sizes', async () => {
    await expectCursorPagesRead(
      (path) => measuredGet(api, token, path),
      [
        `${ACCOUNTS()}?filter[kind]=public`,
        `${ACCOUNTS()}?filter[kind]=commercial&sort=-name`,
        `${ACCOUNTS()}?filter[reference]=ACC-07`,
      ],
      { limits: [2, 3], full: true },
    );
  });

  it("an offset page's total is the kind's count: the page and the counter, never every match", async () => {
    const page = await measuredGet(api, token, `${ACCOUNTS()}?filter[kind]=domestic&page[limit]=5`);
    expect(page.body.meta.pagination.counts.resources).toBe(accounts.filter(kind('domestic')).length);
    expect(page.items).toBeLessThanOrEqual(6);
  });

  it('meta.features names every filter indexed', async () => {
    const res = await api.get(`${ACCOUNTS()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter.indexed).toEqual(
      res.body.meta.features.params.filter.options,
    );
  });
});

describe('import templates: target on lsi2 in name order, counted', () => {
  let templates: StoredResource[];
  const TEMPLATES = () => `/v3/orgs/${tenant.org.id}/governance/import-templates`;
  const template = (orgId: string, i: number) =>
    newRecord(
      importTemplates,
      orgId,
      { attributes: { name: `${SURNAMES[i % SURNAMES.length]} ${i}`, target: 'locations', columns: {} } },
      new Date(START + i * MINUTE),
    );
  beforeAll(async () => {
    templates = Array.from({ length: 40 }, (_, i) => template(tenant.org.id, i));
    await bulkPutCounted([...templates, ...Array.from({ length: 40 }, (_, i) => template(other.org.id, i))]);
  });

  it('filter[target] answers as the partition filter did, in both directions', async () => {
    const all = () => true;
    await expectSameAnswers(
      api,
      token,
      TEMPLATES(),
      'filter[target]=locations',
      inOrder(templates, all, 'attributes.name'),
    );
    await expectSameAnswers(
      api,
      token,
      TEMPLATES(),
      'filter[target]=locations&sort=-name',
      inOrder(templates, all, 'attributes.name', true),
    );
  });

  it('a cursor page reads at most 1.1× what it returns, and an offset page its page and the count', async () => {
    await expectCursorPagesRead(
      (path) => measuredGet(api, token, path),
      [`${TEMPLATES()}?filter[target]=locations`, `${TEMPLATES()}?filter[target]=locations&sort=-name`],
      { limits: [2, 5], full: true },
    );
    const page = await measuredGet(api, token, `${TEMPLATES()}?filter[target]=locations&page[limit]=5`);
    expect(page.body.meta.pagination.counts.resources).toBe(templates.length);
    expect(page.items).toBeLessThanOrEqual(6);
  });

  it('meta.features names every filter indexed', async () => {
    const res = await api.get(`${TEMPLATES()}?page[limit]=1`, token);
    expect(res.body.meta.features.params.filter.indexed).toEqual(
      res.body.meta.features.params.filter.options,
    );
  });
});
