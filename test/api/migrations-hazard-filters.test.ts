/**
 * The filter index migration of site hazards (issue 42, item 1): hazards stored before a pack's hazards
 * were filtered through an index (no `lsi1` status entry, no `lsi2` severity entry, no `gsi2` entry per
 * pack, not counted on the pack's counter: what the code before wrote) are missed by those filters until
 * `migrate` has run, then answer as hazards written today, totals too; the unfiltered list (the pack's
 * listed ids) holds them throughout. A file of its own so its table holds only these records: the runner
 * walks the whole table once per migration.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preConstructionInformation } from '#functions/cdm/definitions';
import { preConstructionSections } from '#functions/cdm/rules/documents';
import { newHazard, withHazard } from '#functions/cdm/site-hazards/writes';
import type { Principal } from '#shared/auth/principal';
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
let admin: string;
let pack: StoredResource;
/** As the former code stored them: an active high, a retired medium and an active low hazard. */
let old: StoredResource[];
/** Written today: an active high hazard. */
let today: StoredResource;

/** The hazard without the entries and counts its filters gained: what the former code's `indexed` stored. */
const asBeforeFilterIndex = ({
  lsi1,
  lsi2,
  gsi2pk,
  gsi2sk,
  counted,
  ...record
}: StoredResource): StoredResource => record;

const at = (minute: number) => new Date(Date.UTC(2026, 0, 5, 10, minute));
/** Who recorded the hazards: only its id and kind are stored (`created_by_service_account`). */
const principal: Principal = {
  id: randomUUID(),
  kind: 'service-account',
  name: 'Seed',
  permissions: new Map(),
  teams: {},
};

const hazard = (title: string, severity: string, retired: boolean, minute: number) => {
  const made = newHazard(pack, { title, severity }, principal, at(minute));
  return retired
    ? {
        ...made,
        attributes: { ...made.attributes, status: 'retired', retired_at: at(minute + 1).toISOString() },
      }
    : made;
};

const filtered = async (query: string) => {
  const res = await api.get(`/v3/pre-construction-information/${pack.id}/site-hazards?${query}`, admin);
  expect(res.status, res.text).toBe(200);
  return {
    ids: res.body.data.map((h: { id: string }) => h.id),
    total: res.body.meta.pagination.counts.resources,
  };
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Hazard filter migration', 0);
  admin = await api.token(tenant.admin);
  pack = newRecord(
    preConstructionInformation,
    tenant.org.id,
    {
      attributes: {
        sections: Object.fromEntries(Object.keys(preConstructionSections).map((n) => [n, null])),
      },
      rels: { scheme: null, site_hazards: [] },
    },
    at(0),
  );
  old = [
    hazard('Excavation', 'high', false, 1),
    hazard('Asbestos', 'medium', true, 2),
    hazard('Traffic', 'low', false, 3),
  ];
  today = hazard('Overhead line', 'high', false, 4);
  const listed = [...old, today].reduce((p, h) => withHazard(p, h.id, at(5)), pack);
  await bulkPutCounted([listed, ...old.map(asBeforeFilterIndex), today]);
});
afterAll(async () => {
  await api?.close();
});

describe('site hazards stored before their filters were indexed', () => {
  const id = (i: number) => old[i]?.id;

  it('before the migration, are missed by status, severity and created_at, and listed unfiltered', async () => {
    expect(await filtered('filter[status]=active')).toEqual({ ids: [today.id], total: 1 });
    expect(await filtered('filter[severity]=high')).toEqual({ ids: [today.id], total: 1 });
    expect(await filtered('filter[status]=retired')).toEqual({ ids: [], total: 0 });
    expect(await filtered('filter[created_at.since]=2026-01-05T10:00:00Z')).toEqual({
      ids: [today.id],
      total: 1,
    });
    expect(await filtered('page[limit]=10')).toEqual({ ids: [id(0), id(1), id(2), today.id], total: 4 });
  });

  it('after it, answer every filter as hazards written today do', async () => {
    const run = await migrate();
    expect(run.finished).toBe(true);
    // The three old hazards; the one written today and the pack had nothing to gain.
    expect(run.ran.find((m) => m.name === 'site-hazard-filter-index')?.changed).toBe(3);
    expect(await filtered('filter[status]=active')).toEqual({ ids: [id(0), id(2), today.id], total: 3 });
    expect(await filtered('filter[status]=retired')).toEqual({ ids: [id(1)], total: 1 });
    expect(await filtered('filter[severity]=high')).toEqual({ ids: [id(0), today.id], total: 2 });
    expect(await filtered('filter[severity]=medium&filter[status]=retired')).toEqual({
      ids: [id(1)],
      total: 1,
    });
    expect(
      await filtered(
        'filter[created_at.since]=2026-01-05T10:02:00Z&filter[created_at.until]=2026-01-05T10:03:30Z',
      ),
    ).toEqual({ ids: [id(1), id(2)], total: 2 });
    const newest = await api.get(
      `/v3/pre-construction-information/${pack.id}/site-hazards?filter[status]=active&sort=-created_at&page[limit]=2&page[cursor]=`,
      admin,
    );
    expect(newest.body.data.map((h: { id: string }) => h.id)).toEqual([today.id, id(2)]);
  });

  it('run again from scratch, change no record and write nothing', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
  });
});
