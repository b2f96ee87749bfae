/**
 * Indexed filters (issue 42, item 1) on collections whose filters are already sort orders: a name of
 * equipment manufacturers, categories, models, vehicle specifications and role groups is read where
 * `sort=name` reads it (`sort-name` on `lsi1`), an invitation's e-mail where `sort=email` does and its
 * creation window on the UUIDv7 ids; a scheme contract's name and code where `sort=name` and `sort=code` read
 * them, and its creation window on the ids. Each answers as the partition's filter did, reads what its page
 * returns, and `meta.features` names every filter indexed, so none is refused alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { equipmentManufacturers } from '#functions/assets/definitions';
import { roleGroups } from '#functions/iam/definitions';
import { invitations } from '#functions/people/invitations';
import { schemeContracts } from '#functions/projects/definitions';
import type { StoredResource } from '#shared/data/stored-resource';
import type { ResourceDefinition } from '#shared/engine/declaration';
import { newRecord } from '#shared/engine/record-writes';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { expectSameAnswers } from '../support/cursor-walk';
import { expectCursorPagesRead, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const COUNT = 120;
const MINUTE = 60_000;
const START = Date.UTC(2026, 4, 1);
const at = (i: number) => new Date(START + i * MINUTE).toISOString();

let api: TestApi;
let tenant: Tenant;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Named filters', 0);
  token = await api.token(tenant.admin);
}, 60_000);
afterAll(() => api.close());

const seed = async (definition: ResourceDefinition, attributes: (i: number) => Record<string, unknown>) => {
  const records = Array.from({ length: COUNT }, (_, i) =>
    newRecord(definition, tenant.org.id, { attributes: attributes(i) }, new Date(START + i * MINUTE)),
  );
  await bulkPutCounted(records);
  return records;
};

/** The ids an unindexed read gives: the matches. */
const expectedIds = (records: StoredResource[], keep: (r: StoredResource) => boolean, key?: string) =>
  records
    .filter(keep)
    .sort(
      (a, b) =>
        (key ? String(a.attributes[key]).localeCompare(String(b.attributes[key])) : 0) ||
        a.sk.localeCompare(b.sk),
    )
    .map((r) => r.id);

/** A filter answers as before (offset page and total, cursor walk) and a cursor page reads what it returns. */
const answersFromIndex = async (path: string, query: string, expected: string[]) => {
  // Records that tie on the sort come in no order the test should rely on: the same set, each once.
  await expectSameAnswers(api, token, path, query, expected, { walkLimit: 2, ordered: false });
  await expectCursorPagesRead((page) => measuredGet(api, token, page), [`${path}?${query}`], {
    limits: [2, 5],
  });
  const features = await api.get(`${path}?page[limit]=1`, token);
  expect(features.body.meta.features.params.filter.indexed).toEqual(
    features.body.meta.features.params.filter.options,
  );
};

describe('a name filter is read where the name sorts', () => {
  it('equipment manufacturers: filter[name] (shared by several) answers from lsi1', async () => {
    const made = await seed(equipmentManufacturers, (i) => ({
      name: `Maker ${String(i % 12).padStart(2, '0')}`,
    }));
    const path = `/v3/orgs/${tenant.org.id}/assets/equipment-manufacturers`;
    await answersFromIndex(
      path,
      'filter[name]=Maker 05',
      expectedIds(made, (r) => r.attributes.name === 'Maker 05', 'name'),
    );
  });

  it('role groups: filter[name] answers from lsi1', async () => {
    const groups = await seed(roleGroups, (i) => ({
      name: `Group ${String(i % 40).padStart(2, '0')}`,
      description: '',
    }));
    const path = `/v3/orgs/${tenant.org.id}/iam/role-groups`;
    await answersFromIndex(
      path,
      'filter[name]=Group 17',
      expectedIds(groups, (r) => r.attributes.name === 'Group 17', 'name'),
    );
  });
});

describe('invitations: e-mail and creation window are indexed', () => {
  let sent: StoredResource[];
  const path = () => `/v3/orgs/${tenant.org.id}/people/invitations`;
  beforeAll(async () => {
    sent = await seed(invitations, (i) => ({
      email: `worker${i % 30}@example.com`,
      status: 'pending',
      lifetime_days: 14,
      expires_at: new Date(START + i * MINUTE + 14 * 86_400_000).toISOString(),
    }));
  });

  it('filter[email] answers from lsi1 (in its order: by creation it reads its few matches to sort them)', async () => {
    await answersFromIndex(
      path(),
      'filter[email]=worker7@example.com&sort=email',
      expectedIds(sent, (r) => r.attributes.email === 'worker7@example.com'),
    );
  });

  it('filter[created_at.since] answers as a key range on the ids', async () => {
    await answersFromIndex(
      path(),
      `filter[created_at.since]=${at(110)}`,
      expectedIds(sent, (r) => String(r.meta.created_at) >= at(110)),
    );
  });
});

describe('scheme contracts: name, code and creation window are indexed (no entry beyond their sorts)', () => {
  let contracts: StoredResource[];
  const path = () => `/v3/orgs/${tenant.org.id}/projects/scheme-contracts`;
  beforeAll(async () => {
    contracts = await seed(schemeContracts, (i) => ({
      name: `Region ${String(i % 12).padStart(2, '0')}`,
      code: `SC-${String(i).padStart(3, '0')}`,
    }));
  });

  it('filter[name] (shared by several) answers from lsi1', async () => {
    await answersFromIndex(
      path(),
      'filter[name]=Region 07',
      expectedIds(contracts, (r) => r.attributes.name === 'Region 07', 'name'),
    );
  });

  it('filter[code] (one each) answers from lsi2', async () => {
    await answersFromIndex(
      path(),
      'filter[code]=SC-042',
      expectedIds(contracts, (r) => r.attributes.code === 'SC-042'),
    );
  });

  it('filter[created_at.since] answers as a key range on the ids', async () => {
    await answersFromIndex(
      path(),
      `filter[created_at.since]=${at(105)}&sort=created_at`,
      expectedIds(contracts, (r) => String(r.meta.created_at) >= at(105)),
    );
  });
});
