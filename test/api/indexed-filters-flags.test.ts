/**
 * Flags and statuses from indexes (issue 42, item 1): an `enabled` filter's entry and count hold the flag
 * as `true` or `false` (`keyText` in shared/engine/stored.ts). A service account's and an agent's `enabled`
 * sit on `lsi2` in name order (the list's sort, on `lsi1`), a webhook subscription's `enabled` and
 * `status` on `lsi1` and `lsi2` in creation order (its one sort); a service account's `name` on its sort,
 * and each type's creation window on the ids; a device backup request's `device` and `status` on `lsi1`
 * and `lsi2` in creation order; a location import's `status` on `lsi1` in creation order. Each answers as the partition's filter did, a cursor page
 * reads at most 1.1× what it returns, and an offset page of a flag alone reads its page and the count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from '#functions/agents/definitions';
import { deviceBackupRequests } from '#functions/device-backups/definitions';
import { serviceAccounts } from '#functions/iam/definitions';
import { locationImports } from '#functions/places/definitions';
import { outcomeOf } from '#functions/places/location-imports/writes';
import { webhookSubscriptions } from '#functions/webhooks/definitions';
import { compareCodePoints, compareCollated } from '#shared/data/collation';
import { valueAt } from '#shared/data/collection-query';
import { getItem } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { newRecord } from '#shared/engine/record-writes';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { expectSameAnswers } from '../support/cursor-walk';
import { expectCursorPagesRead, measuredGet } from '../support/indexed-reads';
import { newTenant, type Tenant } from '../support/tenants';

const COUNT = 120;
const MINUTE = 60_000;
const START = Date.UTC(2026, 5, 1);
const NAMES = ['Sync', 'sync', 'Sync bot', 'Importer', 'importer', 'Zeta', 'Évora', 'evora'];

let api: TestApi;
let tenant: Tenant;
let token: string;
let accounts: StoredResource[];
let personas: StoredResource[];
let subscriptions: StoredResource[];
let requests: StoredResource[];
let imports: StoredResource[];

const at = (i: number) => new Date(START + i * MINUTE);
const name = (i: number) => `${NAMES[i % NAMES.length]} ${i % 13}`;
/** One in twelve disabled: a rare value, whose cursor page must not read the common one. */
const enabled = (i: number) => i % 12 !== 5;

const seed = (orgId: string) => ({
  accounts: Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      serviceAccounts,
      orgId,
      {
        attributes: {
          name: name(i),
          description: '',
          email: `sa-${i}@service-accounts.invalid`,
          enabled: enabled(i),
          keys: [],
        },
        rels: { organisations: [orgId], groups: [] },
      },
      at(i),
    ),
  ),
  personas: Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      agents,
      orgId,
      { attributes: { name: name(i), persona: 'Reviews site records.', enabled: enabled(i) } },
      at(i),
    ),
  ),
  subscriptions: Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      webhookSubscriptions,
      orgId,
      {
        attributes: {
          url: `https://hooks.example.com/${i}`,
          event_types: ['vehicle.created'],
          enabled: enabled(i),
          description: '',
          status: i % 10 === 3 ? 'failing' : 'active',
          failing_since: i % 10 === 3 ? at(i + 5).toISOString() : null,
        },
      },
      at(i),
    ),
  ),
  requests: Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      deviceBackupRequests,
      orgId,
      {
        attributes: {
          device: `tablet-${String(i % 15).padStart(2, '0')}`,
          status: i % 6 === 0 ? 'open' : 'fulfilled',
        },
        rels: { user: null, backup: null, requested_by_user: null, requested_by_service_account: null },
      },
      at(i),
    ),
  ),
  // Finished imports, one in ten failed.
  imports: Array.from({ length: COUNT }, (_, i) =>
    newRecord(
      locationImports,
      orgId,
      {
        attributes: {
          ...outcomeOf(1, { valid: 1, created: 1, updated: 0 }, []),
          ...(i % 10 === 4 && { status: 'failed' }),
          source: { kind: 'inline', file_name: `sites-${i}.csv`, bytes: 20 },
          started_at: at(i).toISOString(),
          finished_at: at(i).toISOString(),
        },
        meta: { write_calls: 1 },
        rels: { author: null, author_service_account: null, import_template: null },
      },
      at(i),
    ),
  ),
});

beforeAll(async () => {
  api = await startTestApi();
  const [mine, other] = await Promise.all([newTenant('Flag filters', 0), newTenant('Flag other', 0)]);
  tenant = mine;
  token = await api.token(tenant.admin);
  ({ accounts, personas, subscriptions, requests, imports } = seed(tenant.org.id));
  const theirs = seed(other.org.id);
  // The same flags in another organisation: never in this one's answers.
  await bulkPutCounted([
    ...personas,
    ...subscriptions,
    ...requests,
    ...imports,
    ...theirs.imports,
    ...theirs.personas,
    ...theirs.subscriptions,
    ...theirs.requests,
  ]);
  // Service accounts through the create's own transaction, which moves the counts: each organisation
  // holds two already (its clients), whose counts a batch's counter item would overwrite.
  for (const record of [...accounts, ...theirs.accounts]) {
    await commit(scopeOf([record.org_id]), [{ create: record }]);
  }
  // The tenant's own two (its admin and viewer clients) are in its list too.
  const own = await Promise.all(
    [tenant.admin, tenant.viewer].map((client) =>
      getItem<StoredResource>(serviceAccounts.keyOf(tenant.org.id, client.principalId)),
    ),
  );
  accounts = [...accounts, ...own.filter((r): r is StoredResource => r !== null)];
  expect(accounts).toHaveLength(COUNT + 2);
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

const flag = (value: boolean) => (r: StoredResource) => r.attributes.enabled === value;
const ACCOUNTS = () => `/v3/orgs/${tenant.org.id}/iam/service-accounts`;
const AGENTS = () => `/v3/orgs/${tenant.org.id}/agents`;
const SUBSCRIPTIONS = () => `/v3/orgs/${tenant.org.id}/webhook-subscriptions`;
const NAME = 'attributes.name';
const CREATED = 'meta.created_at';

describe('service accounts and agents: enabled on lsi2 in name order', () => {
  it('filter[enabled] answers as the partition filter did, both values, both directions', async () => {
    for (const [path, records] of [
      [ACCOUNTS(), accounts],
      [AGENTS(), personas],
    ] as const) {
      await expectSameAnswers(
        api,
        token,
        path,
        'filter[enabled]=false',
        inOrder(records, flag(false), NAME),
        {
          ordered: false,
        },
      );
      await expectSameAnswers(
        api,
        token,
        path,
        'filter[enabled]=true&sort=-name',
        inOrder(records, flag(true), NAME, true),
        { ordered: false, walkLimit: 25 },
      );
      const since = at(100).toISOString();
      await expectSameAnswers(
        api,
        token,
        path,
        `filter[created_at.since]=${since}&filter[enabled]=true&sort=created_at`,
        inOrder(records, (r) => flag(true)(r) && String(r.meta.created_at) >= since, CREATED),
      );
    }
  });

  it('a service account by name, alone and beside its flag', async () => {
    const named = (r: StoredResource) => r.attributes.name === 'Zeta 5';
    // Two accounts named so tie on the name's sort index, in no order a test should rely on.
    await expectSameAnswers(api, token, ACCOUNTS(), 'filter[name]=Zeta 5', inOrder(accounts, named, NAME), {
      ordered: false,
    });
    await expectSameAnswers(
      api,
      token,
      ACCOUNTS(),
      'filter[name]=Zeta 5&filter[enabled]=false',
      inOrder(accounts, (r) => named(r) && flag(false)(r), NAME),
    );
  });

  it('a cursor page in name order reads at most 1.1× what it returns, in the same calls at two page sizes', async () => {
    await expectCursorPagesRead(
      (path) => measuredGet(api, token, path),
      [
        `${ACCOUNTS()}?filter[enabled]=false`,
        `${ACCOUNTS()}?filter[enabled]=true&sort=-name`,
        `${AGENTS()}?filter[enabled]=false&sort=-name`,
        `${AGENTS()}?filter[enabled]=true`,
      ],
      { limits: [2, 5], full: true },
    );
  });

  it("an offset page's total is the flag's count: the page and the counter, never every match", async () => {
    for (const [path, records] of [
      [ACCOUNTS(), accounts],
      [AGENTS(), personas],
    ] as const) {
      const page = await measuredGet(api, token, `${path}?filter[enabled]=true&page[limit]=5`);
      expect(page.body.meta.pagination.counts.resources).toBe(records.filter(flag(true)).length);
      expect(page.items, path).toBeLessThanOrEqual(6);
    }
  });
});

describe('webhook subscriptions: enabled on lsi1 and status on lsi2, in creation order', () => {
  const failing = (r: StoredResource) => r.attributes.status === 'failing';

  it('filter[enabled] and filter[status] answer as the partition filter did, alone and together', async () => {
    await expectSameAnswers(
      api,
      token,
      SUBSCRIPTIONS(),
      'filter[enabled]=false',
      inOrder(subscriptions, flag(false), CREATED),
    );
    await expectSameAnswers(
      api,
      token,
      SUBSCRIPTIONS(),
      'filter[status]=failing&sort=-created_at',
      inOrder(subscriptions, failing, CREATED, true),
    );
    await expectSameAnswers(
      api,
      token,
      SUBSCRIPTIONS(),
      'filter[status]=active&filter[enabled]=false',
      inOrder(subscriptions, (r) => !failing(r) && flag(false)(r), CREATED),
    );
  });

  it('a cursor page reads at most 1.1× what it returns, and an offset page its page and the count', async () => {
    await expectCursorPagesRead(
      (path) => measuredGet(api, token, path),
      [
        `${SUBSCRIPTIONS()}?filter[enabled]=false`,
        `${SUBSCRIPTIONS()}?filter[status]=failing&sort=-created_at`,
        `${SUBSCRIPTIONS()}?filter[status]=active`,
      ],
      { limits: [2, 5], full: true },
    );
    const page = await measuredGet(api, token, `${SUBSCRIPTIONS()}?filter[status]=failing&page[limit]=5`);
    expect(page.body.meta.pagination.counts.resources).toBe(subscriptions.filter(failing).length);
    expect(page.items).toBeLessThanOrEqual(6);
  });
});

describe('device backup requests: device on lsi1 and status on lsi2, in creation order', () => {
  const REQUESTS = () => `/v3/orgs/${tenant.org.id}/device-backup-requests`;
  const open = (r: StoredResource) => r.attributes.status === 'open';
  const device = (value: string) => (r: StoredResource) => r.attributes.device === value;

  it('filter[device] and filter[status] answer as the partition filter did, alone and together', async () => {
    await expectSameAnswers(
      api,
      token,
      REQUESTS(),
      'filter[device]=tablet-07',
      inOrder(requests, device('tablet-07'), CREATED, true),
    );
    await expectSameAnswers(
      api,
      token,
      REQUESTS(),
      'filter[status]=open&sort=created_at',
      inOrder(requests, open, CREATED),
    );
    await expectSameAnswers(
      api,
      token,
      REQUESTS(),
      'filter[status]=open&filter[device]=tablet-12',
      inOrder(requests, (r) => open(r) && device('tablet-12')(r), CREATED, true),
    );
    await expectSameAnswers(api, token, REQUESTS(), 'filter[device]=TABLET-07', []);
  });

  it('a cursor page reads at most 1.1× what it returns, and an offset page of a status its page and the count', async () => {
    await expectCursorPagesRead(
      (path) => measuredGet(api, token, path),
      [
        `${REQUESTS()}?filter[device]=tablet-03`,
        `${REQUESTS()}?filter[status]=open`,
        `${REQUESTS()}?filter[status]=fulfilled&sort=created_at`,
      ],
      { limits: [2, 5], full: true },
    );
    const page = await measuredGet(api, token, `${REQUESTS()}?filter[status]=open&page[limit]=5`);
    expect(page.body.meta.pagination.counts.resources).toBe(requests.filter(open).length);
    expect(page.items).toBeLessThanOrEqual(6);
  });
});

describe('location imports: status on lsi1, in creation order', () => {
  const IMPORTS = () => `/v3/orgs/${tenant.org.id}/governance/location-imports`;
  const failed = (r: StoredResource) => r.attributes.status === 'failed';

  it('filter[status] answers as the partition filter did, in both directions', async () => {
    await expectSameAnswers(
      api,
      token,
      IMPORTS(),
      'filter[status]=failed',
      inOrder(imports, failed, CREATED, true),
    );
    await expectSameAnswers(
      api,
      token,
      IMPORTS(),
      'filter[status]=completed&sort=created_at',
      inOrder(imports, (r) => !failed(r), CREATED),
      { walkLimit: 25 },
    );
  });

  it('a cursor page reads at most 1.1× what it returns, and an offset page its page and the count', async () => {
    await expectCursorPagesRead(
      (path) => measuredGet(api, token, path),
      [`${IMPORTS()}?filter[status]=failed`, `${IMPORTS()}?filter[status]=completed&sort=created_at`],
      { limits: [2, 5], full: true },
    );
    const page = await measuredGet(api, token, `${IMPORTS()}?filter[status]=failed&page[limit]=5`);
    expect(page.body.meta.pagination.counts.resources).toBe(imports.filter(failed).length);
    expect(page.items).toBeLessThanOrEqual(6);
  });
});

describe('meta.features', () => {
  it('names every filter of the five collections indexed', async () => {
    for (const path of [
      ACCOUNTS(),
      AGENTS(),
      SUBSCRIPTIONS(),
      `/v3/orgs/${tenant.org.id}/device-backup-requests`,
      `/v3/orgs/${tenant.org.id}/governance/location-imports`,
    ]) {
      const res = await api.get(`${path}?page[limit]=1`, token);
      expect(res.body.meta.features.params.filter.indexed, path).toEqual(
        res.body.meta.features.params.filter.options,
      );
    }
  });
});
