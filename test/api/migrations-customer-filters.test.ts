/**
 * The customer and briefing filter index migrations (issue 42, item 1): interactions, appointments and
 * briefings written before their filters were answered from indexes lack the entries (and interactions and
 * appointments the channel and status counts), so the filters never found them; after the migrations they
 * are found, and counted, as records written today are, and read back as they did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents, briefings } from '#functions/agents/definitions';
import { customerAppointments, customerInteractions } from '#functions/customers/definitions';
import { scopeOf } from '#shared/data/scope';
import type { StoredResource } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import { fileChild } from '#shared/engine/children';
import { newRecord } from '#shared/engine/record-writes';
import { migrations } from '#shared/routes';
import { migrate } from '../../functions/migrations/run';
import { startTestApi, type TestApi } from '../support/api';
import { rerunFromScratch } from '../support/migration-rerun';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
let adviser: StoredResource;
let oldInteractions: StoredResource[];
let oldAppointments: StoredResource[];
let oldBriefings: StoredResource[];
const CONTACT = '019c0000-0000-7000-8000-0000000000cc';

/**
 * As the creates wrote them before their filters were indexed (3ed9b22): the record with its sort's value
 * (`lsi1`) and a briefing filed under its agent (`gsi1`), no entry under a contact, channel, status or
 * generation time, in no channel or status count.
 */
const beforeFilterIndex = async (record: StoredResource) => {
  const { gsi2pk: _, gsi2sk: __, counted: ___, ...old } = record;
  const { gsi1pk, gsi1sk, gsi1_counted, lsi1, ...bare } = old;
  const kept = record.type === briefings.type ? { ...bare, gsi1pk, gsi1sk, gsi1_counted } : { ...bare, lsi1 };
  await commit(scopeOf([record.org_id]), [{ create: kept as StoredResource }]);
  return kept as StoredResource;
};

const interaction = (orgId: string, channel: string, occurredAt: string) =>
  newRecord(customerInteractions, orgId, {
    attributes: { channel, direction: 'inbound', occurred_at: occurredAt, summary: 'Asked' },
    rels: { contact: CONTACT, account: null },
  });
const appointment = (orgId: string, status: string, startsAt: string) =>
  newRecord(customerAppointments, orgId, {
    attributes: { starts_at: startsAt, purpose: 'Survey', status },
    rels: { contact: CONTACT, account: null, assignee: null },
  });
const briefing = (status: string, generatedAt: string | null) =>
  fileChild(
    adviser,
    newRecord(briefings, adviser.org_id, {
      attributes: { status, ...(generatedAt && { summary: 'Nothing new.', sections: [] }) },
      meta: { generated_at: generatedAt },
      rels: { agent: adviser.id },
    }),
  );

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Old customer filters', 0);
  token = await api.token(tenant.admin);
  const org = tenant.org.id;
  adviser = newRecord(agents, org, { attributes: { name: 'Adviser', persona: 'Reviews.', enabled: true } });
  await commit(scopeOf([org]), [{ create: adviser }]);
  oldInteractions = [
    await beforeFilterIndex(interaction(org, 'sms', '2026-01-05T09:00:00.000Z')),
    await beforeFilterIndex(interaction(org, 'visit', '2026-01-07T09:00:00.000Z')),
  ];
  oldAppointments = [
    await beforeFilterIndex(appointment(org, 'no_show', '2026-02-05T09:00:00.000Z')),
    await beforeFilterIndex(appointment(org, 'cancelled', '2026-02-07T09:00:00.000Z')),
  ];
  oldBriefings = [
    await beforeFilterIndex(briefing('ready', '2026-03-01T08:00:00.000Z')),
    await beforeFilterIndex(briefing('generating', null)),
  ];
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
const INTERACTIONS = () => `/v3/orgs/${tenant.org.id}/customers/interactions`;
const APPOINTMENTS = () => `/v3/orgs/${tenant.org.id}/customers/appointments`;
const BRIEFINGS = () => `/v3/agents/${adviser.id}/briefings`;

describe('before the migrations: records written before their filters were indexed', () => {
  it('interactions and appointments: filter[contact], filter[channel] and filter[status] miss them', async () => {
    expect(await where(INTERACTIONS(), 'filter[channel]=sms')).toEqual({ ids: [], total: 0 });
    expect((await where(INTERACTIONS(), `filter[contact]=${CONTACT}`)).ids).toEqual([]);
    expect(await where(APPOINTMENTS(), 'filter[status]=no_show')).toEqual({ ids: [], total: 0 });
    expect((await where(APPOINTMENTS(), `filter[contact]=${CONTACT}`)).ids).toEqual([]);
  });

  it("briefings: an agent's list by status or generation time misses them", async () => {
    expect((await where(BRIEFINGS(), 'filter[status]=ready')).ids).toEqual([]);
    expect((await where(BRIEFINGS(), 'filter[generated_at.since]=2026-01-01T00:00:00Z')).ids).toEqual([]);
  });
});

describe('the customer and briefing filter index migrations', () => {
  let run: Awaited<ReturnType<typeof migrate>>;
  const read = (records: StoredResource[], path: string) =>
    Promise.all(records.map((r) => api.get(`${path}/${r.id}`, token)));
  const readAll = () =>
    Promise.all([
      read(oldInteractions, INTERACTIONS()),
      read(oldAppointments, APPOINTMENTS()),
      read(oldBriefings, '/v3/briefings'),
    ]);
  let before: Awaited<ReturnType<typeof readAll>>;
  beforeAll(async () => {
    before = await readAll();
    for (const answers of before) for (const res of answers) expect(res.status, res.text).toBe(200);
    run = await migrate();
    expect(run.finished).toBe(true);
  });

  it('interactions and appointments: found and counted as those written today', async () => {
    expect(run.ran.find((m) => m.name === 'customer-filter-index')).toMatchObject({ changed: 4 });
    const [sms, visit] = oldInteractions.map((r) => r.id);
    expect(await where(INTERACTIONS(), 'filter[channel]=sms')).toEqual({ ids: [sms], total: 1 });
    expect(await where(INTERACTIONS(), 'filter[channel]=visit')).toEqual({ ids: [visit], total: 1 });
    expect(await where(INTERACTIONS(), `filter[contact]=${CONTACT}`)).toEqual({
      ids: [visit, sms],
      total: 2,
    });
    const [noShow, cancelled] = oldAppointments.map((r) => r.id);
    expect(await where(APPOINTMENTS(), 'filter[status]=no_show')).toEqual({ ids: [noShow], total: 1 });
    expect(await where(APPOINTMENTS(), 'filter[status]=cancelled')).toEqual({ ids: [cancelled], total: 1 });
    expect(
      await where(APPOINTMENTS(), `filter[contact]=${CONTACT}&filter[starts_at.since]=2026-02-06T00:00:00Z`),
    ).toEqual({ ids: [cancelled], total: 1 });
  });

  it("briefings: found in their agent's list by status and generation time", async () => {
    expect(run.ran.find((m) => m.name === 'briefing-filter-index')).toMatchObject({ changed: 2 });
    const [ready, generating] = oldBriefings.map((r) => r.id);
    expect(await where(BRIEFINGS(), 'filter[status]=ready')).toEqual({ ids: [ready], total: 1 });
    expect(await where(BRIEFINGS(), 'filter[status]=generating')).toEqual({ ids: [generating], total: 1 });
    expect(await where(BRIEFINGS(), 'filter[generated_at.since]=2026-01-01T00:00:00Z')).toEqual({
      ids: [ready],
      total: 1,
    });
  });

  it('each reads back as it did before', async () => {
    const after = await readAll();
    expect(after.map((answers) => answers.map((res) => res.body))).toEqual(
      before.map((answers) => answers.map((res) => res.body)),
    );
  });

  it('run again from scratch, every migration changes no record and writes nothing but its progress', async () => {
    const rerun = await rerunFromScratch();
    expect(rerun.changed).toEqual(migrations.map(() => 0));
    expect(rerun.written).toEqual([]);
  });
});
