/**
 * The rate code, customer contact and qualification type filter index migrations (issue 42, item 1): rate
 * codes, contacts and types written before `filter[category]`, `filter[association]` and `filter[kind]`
 * were answered from `gsi2` lack the entry and the count, so the filters never found them; after the
 * migrations they are found, ordered and counted as records written today are, read back as they did, and
 * a rerun changes nothing. Teams written before `filter[updated_at]` and `sort=updated_at` read `lsi2` lack
 * its value, and are found in that order once migrated; customer accounts and import templates written
 * before `filter[kind]`, `filter[reference]` and `filter[target]` were indexed lack those entries and counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateCodes } from '#functions/costs/definitions';
import { customerAccounts, customerContacts } from '#functions/customers/definitions';
import { teams } from '#functions/people/teams';
import { importTemplates } from '#functions/places/definitions';
import { qualificationTypes } from '#functions/qualifications/definitions';
import { keyFrom } from '#shared/data/access-patterns';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
let oldCodes: StoredResource[];
let oldContacts: StoredResource[];
let oldTypes: StoredResource[];
let newContact: StoredResource;
let oldTeams: StoredResource[];
let newTeam: StoredResource;
let oldAccounts: StoredResource[];
let oldTemplates: StoredResource[];

/**
 * As the creates wrote them before the filters were indexed: the record with its sorts' values (`lsi1`,
 * `lsi2`), no `gsi2` entry and in no category or association count; a rate code with its code's claim.
 */
const beforeFilterIndex = async (record: StoredResource) => {
  const { gsi2pk: _, gsi2sk: __, counted: ___, ...old } = record;
  const definition = [rateCodes, qualificationTypes].find((d) => d.type === record.type);
  const claim = definition?.keys['code-claim'];
  const claims = claim
    ? [
        {
          claim: {
            ...keyFrom(claim, { org_id: record.org_id, code: String(record.attributes.code) } as never),
            holder_id: record.id,
          },
        },
      ]
    : [];
  await commit(scopeOf([record.org_id]), [...claims, { create: old as StoredResource }]);
  return old as StoredResource;
};

/** A team as its create wrote it before its modification time was indexed: no `updated_at` sort value (`lsi2`). */
const beforeUpdatedIndex = async (record: StoredResource) => {
  const { lsi2: _, ...old } = record;
  await commit(scopeOf([record.org_id]), [{ create: old as StoredResource }]);
  return old as StoredResource;
};

/** An account or template as its create wrote it before its filters were indexed: no entries, no counts. */
const beforeEntries = async (record: StoredResource) => {
  const { lsi2: _, gsi2pk: __, gsi2sk: ___, counted: ____, ...old } = record;
  await commit(scopeOf([record.org_id]), [{ create: old as StoredResource }]);
  return old as StoredResource;
};
const account = (orgId: string, name: string, kind: string, reference?: string) =>
  newRecord(customerAccounts, orgId, { attributes: { name, kind, ...(reference && { reference }) } });
const template = (orgId: string, name: string) =>
  newRecord(importTemplates, orgId, { attributes: { name, target: 'locations', columns: {} } });

const rateCode = (orgId: string, code: string, category: string) =>
  newRecord(rateCodes, orgId, { attributes: { code, name: `Rate ${code}`, category } });
const qualificationType = (orgId: string, name: string, kind: string) =>
  newRecord(qualificationTypes, orgId, {
    attributes: { kind, name, code: name.toUpperCase().replaceAll(' ', '-'), has_expiry: false },
  });
/** A team last changed at `updated` (made at the same time). */
const team = (orgId: string, name: string, updated: string) =>
  newRecord(
    teams,
    orgId,
    { attributes: { name, description: '' }, rels: { members: [], schemas: [] } },
    new Date(updated),
  );
const contact = (orgId: string, lastName: string, association: string) =>
  newRecord(customerContacts, orgId, {
    attributes: { association, first_name: 'Pat', last_name: lastName },
    rels: { accounts: [] },
  });

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Old reference filters', 0);
  token = await api.token(tenant.admin);
  const org = tenant.org.id;
  oldCodes = [
    await beforeFilterIndex(rateCode(org, 'LAB-2', 'labour')),
    await beforeFilterIndex(rateCode(org, 'lab-1', 'labour')),
    await beforeFilterIndex(rateCode(org, 'MAT-1', 'material')),
  ];
  oldContacts = [
    await beforeFilterIndex(contact(org, 'Smith Jones', 'owner')),
    await beforeFilterIndex(contact(org, 'Ahmed', 'tenant')),
  ];
  oldTypes = [
    await beforeFilterIndex(qualificationType(org, 'Site safety', 'training')),
    await beforeFilterIndex(qualificationType(org, 'Site', 'training')),
  ];
  // One written today beside them: the migrated ones are ordered among it.
  newContact = contact(org, 'Smith', 'owner');
  await commit(scopeOf([org]), [{ create: newContact }]);
  oldTeams = [
    await beforeUpdatedIndex(team(org, 'Civils', '2026-03-02T09:00:00.000Z')),
    await beforeUpdatedIndex(team(org, 'Asbestos', '2026-03-04T09:00:00.000Z')),
  ];
  newTeam = team(org, 'Electrical', '2026-03-03T09:00:00.000Z');
  await commit(scopeOf([org]), [{ create: newTeam }]);
  oldAccounts = [
    await beforeEntries(account(org, 'Riverside', 'commercial', 'ACC-1')),
    await beforeEntries(account(org, 'Abbey', 'commercial')),
  ];
  oldTemplates = [await beforeEntries(template(org, 'Sites')), await beforeEntries(template(org, 'Depots'))];
});
afterAll(async () => {
  await api?.close();
});

const where = async (path: string, query: string) => {
  const res = await api.get(`${path}?${query}&page[limit]=100`, token);
  expect(res.status, res.text).toBe(200);
  return {
    ids: (res.body.data as { id: string }[]).map((r) => r.id),
    total: res.body.meta.pagination.counts.resources as number,
  };
};
const RATE_CODES = () => `/v3/orgs/${tenant.org.id}/costs/rate-codes`;
const TYPES = () => `/v3/orgs/${tenant.org.id}/qualifications/types`;
const CONTACTS = () => `/v3/orgs/${tenant.org.id}/customers/contacts`;
const TEAMS = () => `/v3/orgs/${tenant.org.id}/people/teams`;
const ACCOUNTS = () => `/v3/orgs/${tenant.org.id}/customers/accounts`;
const TEMPLATES = () => `/v3/orgs/${tenant.org.id}/governance/import-templates`;
const SYNC = 'filter[updated_at.since]=2026-03-01T00:00:00Z&sort=updated_at';

describe('before the migrations: records written before their filters were indexed', () => {
  it('filter[category] and filter[association] miss them', async () => {
    expect(await where(RATE_CODES(), 'filter[category]=labour')).toEqual({ ids: [], total: 0 });
    expect(await where(CONTACTS(), 'filter[association]=owner')).toEqual({ ids: [newContact.id], total: 1 });
    expect(await where(TYPES(), 'filter[kind]=training')).toEqual({ ids: [], total: 0 });
    expect(await where(TEAMS(), SYNC)).toEqual({ ids: [newTeam.id], total: 1 });
    expect(await where(ACCOUNTS(), 'filter[kind]=commercial')).toEqual({ ids: [], total: 0 });
    expect(await where(ACCOUNTS(), 'filter[reference]=ACC-1')).toEqual({ ids: [], total: 0 });
    expect(await where(TEMPLATES(), 'filter[target]=locations')).toEqual({ ids: [], total: 0 });
  });

  it('filter[code] finds an old rate code already, by the claim its create wrote', async () => {
    expect((await where(RATE_CODES(), 'filter[code]=MAT-1')).ids).toEqual([oldCodes[2]?.id]);
  });
});

describe('the rate code and contact filter index migrations', () => {
  let run: Awaited<ReturnType<typeof migrate>>;
  const readAll = () =>
    Promise.all([
      ...oldCodes.map((r) => api.get(`${RATE_CODES()}/${r.id}`, token)),
      ...oldContacts.map((r) => api.get(`${CONTACTS()}/${r.id}`, token)),
      ...oldTypes.map((r) => api.get(`/v3/qualification-types/${r.id}`, token)),
      ...oldTeams.map((r) => api.get(`${TEAMS()}/${r.id}`, token)),
      ...oldAccounts.map((r) => api.get(`${ACCOUNTS()}/${r.id}`, token)),
      ...oldTemplates.map((r) => api.get(`${TEMPLATES()}/${r.id}`, token)),
    ]);
  let before: Awaited<ReturnType<typeof readAll>>;
  beforeAll(async () => {
    before = await readAll();
    for (const res of before) expect(res.status, res.text).toBe(200);
    run = await migrate();
    expect(run.finished).toBe(true);
  });

  it('rate codes: found by category in code order, and counted', async () => {
    expect(run.ran.find((m) => m.name === 'rate-code-filter-index')).toMatchObject({ changed: 3 });
    const [lab2, lab1, mat1] = oldCodes.map((r) => r.id);
    expect(await where(RATE_CODES(), 'filter[category]=labour')).toEqual({ ids: [lab1, lab2], total: 2 });
    expect(await where(RATE_CODES(), 'filter[category]=material')).toEqual({ ids: [mat1], total: 1 });
  });

  it('contacts: found by association in last-name order among those written today, and counted', async () => {
    expect(run.ran.find((m) => m.name === 'contact-filter-index')).toMatchObject({ changed: 2 });
    const [smithJones, ahmed] = oldContacts.map((r) => r.id);
    expect(await where(CONTACTS(), 'filter[association]=owner')).toEqual({
      ids: [newContact.id, smithJones],
      total: 2,
    });
    expect(await where(CONTACTS(), 'filter[association]=tenant')).toEqual({ ids: [ahmed], total: 1 });
  });

  it('qualification types: found by kind in name order, and counted', async () => {
    expect(run.ran.find((m) => m.name === 'qualification-type-filter-index')).toMatchObject({ changed: 2 });
    const [siteSafety, site] = oldTypes.map((r) => r.id);
    expect(await where(TYPES(), 'filter[kind]=training')).toEqual({ ids: [site, siteSafety], total: 2 });
    expect((await where(TYPES(), 'filter[code]=SITE-SAFETY')).ids).toEqual([siteSafety]);
  });

  it('teams: found by a modification window, in modification order among those written today', async () => {
    expect(run.ran.find((m) => m.name === 'team-filter-index')).toMatchObject({ changed: 2 });
    const [civils, asbestos] = oldTeams.map((r) => r.id);
    expect(await where(TEAMS(), SYNC)).toEqual({ ids: [civils, newTeam.id, asbestos], total: 3 });
    expect(await where(TEAMS(), 'sort=-updated_at')).toEqual({
      ids: [asbestos, newTeam.id, civils],
      total: 3,
    });
  });

  it('customer accounts: found by kind and by reference in name order, and counted', async () => {
    expect(run.ran.find((m) => m.name === 'account-filter-index')).toMatchObject({ changed: 2 });
    const [riverside, abbey] = oldAccounts.map((r) => r.id);
    expect(await where(ACCOUNTS(), 'filter[kind]=commercial')).toEqual({ ids: [abbey, riverside], total: 2 });
    expect(await where(ACCOUNTS(), 'filter[reference]=ACC-1')).toEqual({ ids: [riverside], total: 1 });
  });

  it('import templates: found by target in name order, and counted', async () => {
    expect(run.ran.find((m) => m.name === 'import-template-filter-index')).toMatchObject({ changed: 2 });
    const [sites, depots] = oldTemplates.map((r) => r.id);
    expect(await where(TEMPLATES(), 'filter[target]=locations')).toEqual({ ids: [depots, sites], total: 2 });
  });

  it('each reads back as it did before', async () => {
    const after = await readAll();
    expect(after.map((res) => res.body)).toEqual(before.map((res) => res.body));
  });

  it('run again from scratch, every migration changes no record and writes nothing but its progress', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
  });
});
