/**
 * The street works filter index migration (issue 42, item 1): permits, activities and protections stored
 * before their filters were indexed (no `gsi1`/`gsi2` entries, and permits and activities in no status
 * count: what the code before wrote) are missed by those filters until `migrate` has run, then answer,
 * totals included, as records written today. A file of its own so its table holds only these records: the
 * runner walks the whole table once per migration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permits, protections, streetWorks } from '#functions/street-works/definitions';
import type { StoredResource } from '#shared/data/stored-resource';
import { newRecord } from '#shared/engine/record-writes';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { bulkPutCounted } from '../support/counted-seed';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
let oldPermit: StoredResource;
let bareOldPermit: StoredResource;
let todayPermit: StoredResource;
let oldActivity: StoredResource;
let oldProtection: StoredResource;

/** The record as the former code stored it: without the entries and counts its filters gained. */
const asBeforeFilterIndex = ({
  gsi1pk,
  gsi1sk,
  gsi2pk,
  gsi2sk,
  counted,
  ...record
}: StoredResource): StoredResource => record;

const object = (
  definition: typeof permits | typeof streetWorks,
  reference: string,
  status: string | null,
  usrn: string | null,
  minute: number,
) =>
  newRecord(
    definition,
    tenant.org.id,
    {
      attributes: {
        reference,
        status,
        work_status: null,
        latest_event_time: status ? new Date(Date.UTC(2026, 0, 5, 8, minute)).toISOString() : null,
        usrn,
      },
    },
    new Date(Date.UTC(2026, 0, 5, 9, minute)),
  );

const list = async (collection: string, query: string) => {
  const res = await api.get(
    `/v3/orgs/${tenant.org.id}/street-works/${collection}?${query}&sort=created_at`,
    token,
  );
  expect(res.status, res.text).toBe(200);
  return {
    ids: res.body.data.map((r: { id: string }) => r.id),
    total: res.body.meta.pagination.counts.resources,
  };
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Street works filter migration', 0);
  token = await api.token(tenant.admin);
  oldPermit = object(permits, 'TM00001', 'granted', 'USRN1', 1);
  bareOldPermit = object(permits, 'TM00002', null, null, 2);
  todayPermit = object(permits, 'TM00003', 'granted', 'USRN1', 3);
  oldActivity = object(streetWorks, 'TM00004', 'active', 'USRN2', 4);
  const received = new Date(Date.UTC(2026, 0, 5, 9, 5));
  oldProtection = newRecord(
    protections,
    tenant.org.id,
    {
      attributes: {
        event_reference: 'E1',
        event_type: 'PERMIT_GRANTED',
        object_type: 'PERMIT',
        object_reference: 'TM00001',
        event_time: new Date(Date.UTC(2026, 0, 5, 8, 1)).toISOString(),
        received_at: received.toISOString(),
        applied: false,
        event: {},
        message_attributes: {},
        sns: { topic_arn: 'arn:aws:sns:eu-west-2:1:t', message_id: 'm1', subject: null },
      },
      rels: { permit: oldPermit.id },
    },
    received,
  );
  await bulkPutCounted([
    ...[oldPermit, bareOldPermit, oldActivity, oldProtection].map(asBeforeFilterIndex),
    todayPermit,
  ]);
});
afterAll(async () => {
  await api?.close();
});

describe('permits, activities and protections stored before their filters were indexed', () => {
  it('before the migration, are missed by their indexed filters, and listed unfiltered', async () => {
    expect(await list('permits', 'filter[status]=granted')).toEqual({ ids: [todayPermit.id], total: 1 });
    expect(await list('permits', 'filter[usrn]=USRN1')).toEqual({ ids: [todayPermit.id], total: 1 });
    expect((await list('permits', 'page[limit]=10')).total).toBe(3);
    expect(await list('activities', 'filter[usrn]=USRN2')).toEqual({ ids: [], total: 0 });
    expect((await list('protections', 'filter[object_reference]=TM00001')).ids).toEqual([]);
    expect((await list('protections', 'filter[event_type]=PERMIT_GRANTED')).ids).toEqual([]);
  });

  it('after it, answer every filter, totals included, as records written today do', async () => {
    const run = await migrate();
    expect(run.finished).toBe(true);
    // The permit without status or street had nothing to gain.
    expect(run.ran.find((m) => m.name === 'street-works-filter-index')?.changed).toBe(3);
    expect(await list('permits', 'filter[status]=granted')).toEqual({
      ids: [oldPermit.id, todayPermit.id],
      total: 2,
    });
    expect(await list('permits', 'filter[usrn]=USRN1')).toEqual({
      ids: [oldPermit.id, todayPermit.id],
      total: 2,
    });
    expect(await list('permits', 'filter[reference]=TM00002')).toEqual({ ids: [bareOldPermit.id], total: 1 });
    expect(await list('activities', 'filter[status]=active')).toEqual({ ids: [oldActivity.id], total: 1 });
    expect(await list('activities', 'filter[usrn]=USRN2')).toEqual({ ids: [oldActivity.id], total: 1 });
    for (const query of [
      'filter[event_type]=PERMIT_GRANTED&filter[applied]=false',
      'filter[event_type]=PERMIT_GRANTED',
      'filter[object_reference]=TM00001',
    ]) {
      expect(await list('protections', query), query).toEqual({ ids: [oldProtection.id], total: 1 });
    }
  });

  it('run again from scratch, change no record and write nothing', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
  });
});
