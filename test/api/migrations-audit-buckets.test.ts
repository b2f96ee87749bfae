/**
 * Migration audit-month-buckets (issue 42): audit entries are bucketed by their ids' month from `since`
 * (2026-12), and a release deployed after that began leaves entries the code before it wrote in the former
 * partition `ORG#<org>#audit-events` with ids of a bucketed month. Before the migration such an entry is
 * missing by id and lists out of order; after it every entry reads by id where its id says, the list
 * answers in order with the same total, entries before `since` stay put, and a second run writes nothing.
 * Reads run at a clock in March 2027 (faked `Date`), so the months after the buckets begin have passed.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditMonthBuckets } from '#functions/audit/migrations/audit-month-buckets';
import { documents, tableName } from '#shared/data/clients';
import { eventPartition, type StoredEvent, subjectEvents } from '#shared/data/events';
import { uuidv7 } from '#shared/data/ids';
import { readProgress, readSchemaVersion } from '#shared/data/migrations';
import { getItem } from '#shared/data/repository';
import type { StoredResource } from '#shared/data/stored-resource';
import type { DeclaredMigration, MigrationStep } from '#shared/engine/migration-declarations';
import { runMigrations } from '#shared/engine/migration-runner';
import { migrations } from '#shared/routes';
import { loadMigration, migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { consume, streamRecordOf } from '../support/event-stream';
import { type TableWrites, watchTableWrites } from '../support/table-writes';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let writes: TableWrites;
const NAME = 'audit-month-buckets';
const version = () => migrations.find((m) => m.name === NAME)?.version ?? Number.NaN;

/** An event at a moment of our choosing (its UUIDv7 id carries it), about a location of its own. */
const eventAt = (at: string): StoredEvent => {
  const time = Date.parse(at);
  const id = uuidv7(time);
  const subject = { type: 'locations', id: uuidv7(time) };
  return {
    pk: eventPartition(tenant.org.id),
    sk: id,
    gsi1pk: subjectEvents(subject.id),
    gsi1sk: id,
    id,
    org_id: tenant.org.id,
    event: 'location.created',
    subject,
    actor: { kind: 'system', id: 'test' },
    occurred_at: new Date(time).toISOString(),
    data: { ...subject, attributes: { name: `Depot ${at}` }, relationships: {}, meta: {} },
    expires_at: Math.floor(time / 1000) + 3600,
  };
};

/**
 * Where each entry is kept: `before` the buckets (the former partition, stays); `old code` (an id of a
 * bucketed month, written by the code before buckets in the former partition); `both` (the old code wrote
 * it there and, its counts not yet moved, a redelivery to the new code wrote it again in its month); `month`
 * (written today). A `month` entry older than an `old code` one shows the list out of order.
 */
const ENTRIES = {
  june2025: ['2025-06-02T08:00:00.000Z', 'before'],
  lastOfNovember: ['2026-11-30T23:59:59.999Z', 'before'],
  firstOfDecember: ['2026-12-01T00:00:00.000Z', 'old code'],
  midDecember: ['2026-12-15T08:00:00.000Z', 'month'],
  january: ['2027-01-15T08:00:00.000Z', 'old code'],
  february: ['2027-02-10T08:00:00.000Z', 'both'],
  march: ['2027-03-01T08:00:00.000Z', 'month'],
} as const;
type Name = keyof typeof ENTRIES;
const names = Object.keys(ENTRIES) as Name[];
const id: Partial<Record<Name, string>> = {};
const idOf = (name: Name) => id[name] as string;
/** The entries in the former partition with ids of a bucketed month, as stored there before the migration. */
const misplaced: StoredResource[] = [];
let newestFirst: string[];

const formerPk = () => `ORG#${tenant.org.id}#audit-events`;
const monthPk = (name: Name) => `${formerPk()}#${ENTRIES[name][0].slice(0, 7)}`;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Audit Month Moves Org', 0);
  for (const name of names) {
    const event = eventAt(ENTRIES[name][0]);
    id[name] = event.id;
    await consume(streamRecordOf(event));
    const where = ENTRIES[name][1];
    if (where !== 'old code' && where !== 'both') continue;
    // As the code before buckets wrote it: the same entry (counts moved, gsi1 and all), at the former key.
    const entry = (await getItem<StoredResource>(
      { pk: monthPk(name), sk: event.id },
      true,
    )) as StoredResource;
    const old = { ...entry, pk: formerPk() };
    await documents.send(new PutCommand({ TableName: tableName, Item: old }));
    if (where === 'old code')
      await documents.send(
        new DeleteCommand({ TableName: tableName, Key: { pk: monthPk(name), sk: event.id } }),
      );
    misplaced.push(old);
  }
  newestFirst = names.map(idOf).sort((a, b) => (a < b ? 1 : -1));
  writes = await watchTableWrites();
});
afterAll(async () => {
  await writes?.stop();
  await api?.close();
});
afterEach(() => vi.useRealTimers());

/** Reads at a clock in March 2027, with a token minted at that clock. */
const inMarch2027 = async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2027-03-20T12:00:00Z') });
  return api.token(tenant.admin);
};
const list = () => `/v3/orgs/${tenant.org.id}/audit-events`;
const ids = (body: { data: { id: string }[] }) => body.data.map((e) => e.id);

/** Each step as declared, telling the test which items it was handed. */
const watchedSteps =
  (handed: string[]) =>
  async (declared: DeclaredMigration): Promise<MigrationStep> => {
    const step = await loadMigration(declared);
    return {
      ...step,
      migrate: (items, now) => {
        handed.push(...items.map((item) => `${declared.name} ${item.id}`));
        return step.migrate(items, now);
      },
    };
  };

describe('audit entries the code before month buckets wrote after they began, before the migration', () => {
  it('an entry of a bucketed month in the former partition is missing by id, and the list is out of order', async () => {
    const token = await inMarch2027();
    for (const name of ['firstOfDecember', 'january'] as const) {
      const res = await api.get(`${list()}/${idOf(name)}`, token);
      expect(res.status, res.text).toBe(404);
    }
    // Read without the test client's document checks: this answer is not a valid document (see below).
    const res = await fetch(`${api.url}${list()}?page[limit]=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const all = (await res.json()) as {
      data: { id: string }[];
      meta: { pagination: { counts: { resources: number } } };
    };
    expect(all.meta.pagination.counts.resources).toBe(names.length);
    const listed = ids(all);
    // January's entry, in the former partition, lists after mid-December's, in its month; February's,
    // at both keys, is listed twice (a duplicate resource: a JSON:API client refuses the document).
    expect(listed.indexOf(idOf('january'))).toBeGreaterThan(listed.indexOf(idOf('midDecember')));
    expect(listed.filter((one) => one === idOf('february'))).toHaveLength(2);
  });
});

describe('migration audit-month-buckets', () => {
  const handed: string[] = [];
  const movedIds = () => misplaced.map((entry) => `${NAME} ${entry.id}`).sort();

  it('a run cut short after a page of entries resumes; the step is handed exactly the misplaced entries, each once', async () => {
    const mine = () => handed.filter((h) => h.startsWith(`${NAME} `));
    const cut = await runMigrations(migrations, watchedSteps(handed), {
      pageSize: 2,
      timeUp: () => mine().length > 0,
    });
    expect(cut.finished).toBe(false);
    expect(await readSchemaVersion()).toBe(version() - 1);
    expect((await readProgress(version()))?.checkpoint).toBeDefined();
    expect(mine().length).toBeLessThan(misplaced.length);

    const resumed = await runMigrations(migrations, watchedSteps(handed), { pageSize: 2 });
    expect(resumed).toMatchObject({ to: migrations.length, finished: true });
    // Not an entry before `since` (the last millisecond of November stays), nor one in its month already.
    expect(mine().sort()).toEqual(movedIds());
  });

  it('each misplaced entry is at its month’s key with every attribute as it was, gone from the former partition; those before stay', async () => {
    for (const old of misplaced) {
      const name = names.find((n) => idOf(n) === old.id) as Name;
      expect(await getItem({ pk: formerPk(), sk: old.id }, true)).toBeNull();
      expect(await getItem({ pk: monthPk(name), sk: old.id }, true)).toEqual({ ...old, pk: monthPk(name) });
    }
    for (const name of ['june2025', 'lastOfNovember'] as const)
      expect(await getItem({ pk: formerPk(), sk: idOf(name) }, true)).not.toBeNull();
  });

  it('every entry reads by id, and the list answers newest first and oldest first with the same total', async () => {
    const token = await inMarch2027();
    for (const name of names) {
      const res = await api.get(`${list()}/${idOf(name)}`, token);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.id).toBe(idOf(name));
    }
    const all = await api.get(`${list()}?page[limit]=100`, token);
    expect(ids(all.body)).toEqual(newestFirst);
    expect(all.body.meta.pagination.counts.resources).toBe(names.length);
    const oldest = await api.get(`${list()}?sort=created_at&page[limit]=100`, token);
    expect(ids(oldest.body)).toEqual([...newestFirst].reverse());
  });

  it('a page handed over again (moved, its progress unsaved) changes nothing', async () => {
    await writes.since();
    expect(await auditMonthBuckets.migrate(misplaced, new Date())).toBe(0);
    expect(await writes.since()).toEqual([]);
  });

  it('a second run reads nothing but the schema version and writes nothing', async () => {
    await writes.since();
    const again = await migrate();
    expect(again).toEqual({ from: migrations.length, to: migrations.length, ran: [], finished: true });
    expect(await writes.since()).toEqual([]);
  });
});
