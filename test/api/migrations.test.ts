/**
 * Migrations (issue 42, item 3): records stored in the shape older code wrote read back through the API
 * as records written today, once `npm run migrate` (here `migrate`, the same runner) has run; a run cut
 * short resumes where it stopped, and a second run changes nothing.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organisations } from '#functions/organisations/definitions';
import { SETTINGS_DEFAULTS } from '#functions/organisations/settings';
import { users } from '#functions/people/users';
import { streets } from '#functions/places/definitions';
import { documents, tableName } from '#shared/data/clients';
import { directoryEntry, directoryKey } from '#shared/data/id-directory';
import { uuidv7 } from '#shared/data/ids';
import { readProgress, readSchemaVersion } from '#shared/data/migrations';
import { getItem } from '#shared/data/repository';
import { scopeOf } from '#shared/data/scope';
import { counterKey, resourceKey, type StoredResource } from '#shared/data/stored-resource';
import { commit } from '#shared/data/transaction';
import type { DeclaredMigration, MigrationStep } from '#shared/engine/migration-declarations';
import { runMigrations } from '#shared/engine/migration-runner';
import { newRecord } from '#shared/engine/record-writes';
import { toStoredResource } from '#shared/engine/stored';
import { migrations } from '#shared/routes';
import { loadMigration, migrate } from '../../functions/migrations/run';
import { createServiceAccountClient, createUser } from '../../infra/local/records';
import { startTestApi, type TestApi } from '../support/api';
import { type TableWrites, watchTableWrites } from '../support/table-writes';

let api: TestApi;
let writes: TableWrites;
/** Organisations as they were made before settings existed, each with an admin's token. */
const oldOrganisations: { org: StoredResource; token: string }[] = [];
/** A user as joining wrote one before users were administered, and one written today, in one organisation. */
let oldUser: StoredResource;
let newUser: StoredResource;
/** An equipment item as written before `filter[status]` had an index (i42-filters^): no `gsi1` entry. */
let oldItemId: string;
/** A street as written before the id directory: no entry. */
let oldStreet: StoredResource;
/** An equipment item as stored before statuses were counted (i42-filters2^): in no count. */
let uncountedItemId: string;
/** A vehicle as stored before its status had an index (i42-filters2^): no `gsi1` entry, in no count. */
let oldVehicleId: string;

const stamp = (at: Date) => ({ created_at: at.toISOString(), updated_at: at.toISOString() });

/** As `createOrganisation` wrote one before settings (747ff66^): the organisation alone. */
const organisationBeforeSettings = async (name: string) => {
  const at = new Date();
  const id = uuidv7(at.getTime());
  const org = toStoredResource(organisations, {
    orgId: id,
    id,
    attributes: {
      name,
      slug: `${name.toLowerCase().replace(/\W+/g, '-')}-${id.slice(-6)}`,
      description: name,
    },
    meta: { ...stamp(at), status: 'active' },
  });
  await commit(scopeOf([id]), [{ create: org }]);
  return org;
};

/**
 * As `createUser` wrote one before users were administered (747ff66^): no `status`, and none of the
 * sort keys, since the declaration then had no sorts to derive them from.
 */
const userBeforeAdministration = async (orgId: string, last: string) => {
  const at = new Date();
  const {
    lsi1: _,
    lsi2: __,
    ...user
  } = toStoredResource(users, {
    orgId,
    id: uuidv7(at.getTime()),
    attributes: {
      email: `${last.toLowerCase()}@old.example`,
      identities: [],
      profile: {
        work: { occupation: null, cscs: null, eusr: null, start_date: null },
        personal: { first_name: 'Olive', last_name: last, username: last.toLowerCase(), dob: null },
        contact: { mobile: null, landline: null },
        address: Object.fromEntries(
          [
            'number',
            'street',
            'area',
            'town',
            'county',
            'postcode',
            'country_code',
            'three_word_address',
          ].map((n) => [n, n === 'country_code' ? 'GB' : null]),
        ),
        settings: { preferred_language: 'en-GB', timezone: 'Europe/London' },
      },
    },
    meta: stamp(at),
    rels: { organisations: [orgId], teams: [] },
  });
  await commit(scopeOf([orgId]), [{ create: user }]);
  return user;
};

/** A street as a create wrote one before the id directory (issue 42, item 2): the record, no entry. */
const streetBeforeDirectory = async (orgId: string) => {
  const street = newRecord(streets, orgId, {
    attributes: { name: 'Old Lane', usrn: '30100002', town: 'Dent' },
  });
  await commit(scopeOf([orgId]), [{ create: street }]);
  await documents.send(new DeleteCommand({ TableName: tableName, Key: directoryKey(street.id) }));
  return street;
};

/** Each step as declared, telling the test which items it was handed. */
const watchedSteps =
  (handed: string[]) =>
  async (declared: DeclaredMigration): Promise<MigrationStep> => {
    const step = await loadMigration(declared);
    return {
      ...step,
      migrate: (items, now) => {
        // By step: two steps may select one item (an organisation has settings and a directory entry).
        handed.push(...items.map((item) => `${declared.name} ${item.id}`));
        return step.migrate(items, now);
      },
    };
  };

const settingsOf = (org: { org: StoredResource; token: string }) =>
  api.get(`/v3/orgs/${org.org.id}/settings`, org.token);
const usersOf = (org: { org: StoredResource; token: string }, query: string) =>
  api.get(`/v3/orgs/${org.org.id}/people/users${query}`, org.token);
const idsIn = (res: { body: { data: { id: string }[] } }) => res.body.data.map((u) => u.id);

beforeAll(async () => {
  api = await startTestApi();
  for (let i = 0; i < 6; i++) {
    const org = await organisationBeforeSettings(`Old Organisation ${i}`);
    const client = await createServiceAccountClient(`Old ${i} admin`, [{ org_id: org.id, role: 'admin' }]);
    oldOrganisations.push({ org, token: await api.token(client) });
  }
  const [first] = oldOrganisations;
  if (!first) throw new Error('no organisation');
  oldUser = await userBeforeAdministration(first.org.id, 'Aardvark');
  oldStreet = await streetBeforeDirectory(first.org.id);
  newUser = await createUser(first.org.id, {
    email: 'new@old.example',
    first_name: 'Nia',
    last_name: 'Zebra',
  });
  const created = await api.request('POST', `/v3/orgs/${first.org.id}/assets/equipment`, {
    token: first.token,
    body: { data: { type: 'equipment-items', attributes: { serial: 'OLD-1', status: 'in_repair' } } },
  });
  expect(created.status, created.text).toBe(201);
  oldItemId = created.body.data.id;
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: resourceKey(first.org.id, 'equipment-items', oldItemId),
      UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
    }),
  );
  const second = oldOrganisations[1];
  if (!second) throw new Error('no second organisation');
  const lost = await api.request('POST', `/v3/orgs/${second.org.id}/assets/equipment`, {
    token: second.token,
    body: { data: { type: 'equipment-items', attributes: { serial: 'OLD-2', status: 'lost' } } },
  });
  expect(lost.status, lost.text).toBe(201);
  uncountedItemId = lost.body.data.id;
  // As a create stored it before statuses were counted: the item in no count, its counter without one.
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: resourceKey(second.org.id, 'equipment-items', uncountedItemId),
      UpdateExpression: 'REMOVE #counted',
      ExpressionAttributeNames: { '#counted': 'counted' },
    }),
  );
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: counterKey(second.org.id, 'equipment-items'),
      UpdateExpression: 'REMOVE #lost',
      ExpressionAttributeNames: { '#lost': 'status#lost' },
    }),
  );
  const van = await api.request('POST', `/v3/orgs/${second.org.id}/assets/vehicles`, {
    token: second.token,
    body: { data: { type: 'vehicles', attributes: { registration: 'OLD 1', status: 'off_road' } } },
  });
  expect(van.status, van.text).toBe(201);
  oldVehicleId = van.body.data.id;
  // As a create stored it before vehicles' status had an index: no entry, in no count.
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: resourceKey(second.org.id, 'vehicles', oldVehicleId),
      UpdateExpression: 'REMOVE gsi1pk, gsi1sk, #counted',
      ExpressionAttributeNames: { '#counted': 'counted' },
    }),
  );
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: counterKey(second.org.id, 'vehicles'),
      UpdateExpression: 'REMOVE #off',
      ExpressionAttributeNames: { '#off': 'status#off_road' },
    }),
  );
  writes = await watchTableWrites();
});
const inRepair = (org: { org: StoredResource; token: string }) =>
  api.get(`/v3/orgs/${org.org.id}/assets/equipment?filter[status]=in_repair`, org.token);
/** `filter[status]=off_road` on vehicles by offset: its page's ids and its total. */
const offRoadOf = async (org: { org: StoredResource; token: string }) => {
  const res = await api.get(`/v3/orgs/${org.org.id}/assets/vehicles?filter[status]=off_road`, org.token);
  expect(res.status, res.text).toBe(200);
  return { ids: idsIn(res), total: res.body.meta.pagination.counts.resources };
};
/** `filter[status]=lost` by offset: its page's ids and its total (`meta.pagination.counts.resources`). */
const lostOf = async (org: { org: StoredResource; token: string }) => {
  const res = await api.get(`/v3/orgs/${org.org.id}/assets/equipment?filter[status]=lost`, org.token);
  expect(res.status, res.text).toBe(200);
  return { ids: idsIn(res), total: res.body.meta.pagination.counts.resources };
};
afterAll(async () => {
  await writes?.stop();
  await api?.close();
});

describe('records in their old shape, before any migration', () => {
  it('answer as the debts say: settings 404, the user missing from the status filter and the name sort', async () => {
    const [first] = oldOrganisations as [(typeof oldOrganisations)[number]];
    expect((await settingsOf(first)).status).toBe(404);
    const sorted = await usersOf(first, '?sort=last_name');
    expect(sorted.status, sorted.text).toBe(200);
    expect(idsIn(sorted)).toEqual([newUser.id]);
    expect(idsIn(await usersOf(first, '?filter[status]=active'))).toEqual([newUser.id]);
    expect(idsIn(await inRepair(first))).toEqual([]);
    const second = oldOrganisations[1] as (typeof oldOrganisations)[number];
    expect(await lostOf(second)).toEqual({ ids: [uncountedItemId], total: 0 });
    expect(await offRoadOf(second)).toEqual({ ids: [], total: 0 });
  });

  it('a street stored before the id directory has no entry, and is read by its bare id all the same (looked up in each organisation)', async () => {
    const [first] = oldOrganisations as [(typeof oldOrganisations)[number]];
    expect(await getItem(directoryKey(oldStreet.id))).toBeNull();
    const res = await api.get(`/v3/streets/${oldStreet.id}`, first.token);
    expect(res.status, res.text).toBe(200);
  });
});

describe('the migration runner', () => {
  it('resumes a run cut short after a checkpoint from that checkpoint, never handing a step an item twice', async () => {
    const first: string[] = [];
    const cut = await runMigrations(migrations, watchedSteps(first), {
      pageSize: 3,
      // Stops after the first page that held an organisation.
      timeUp: () => first.length > 0,
    });
    expect(cut.finished).toBe(false);
    expect(await readSchemaVersion()).toBe(0);
    const saved = await readProgress(1);
    expect(saved?.checkpoint).toBeDefined();
    expect(saved?.finished_at).toBeUndefined();
    const oldIds = oldOrganisations.map((o) => `settings-for-every-organisation ${o.org.id}`);
    expect(first.length).toBeLessThan(oldIds.length);

    const rest: string[] = [];
    // The rest in the runner's own pages: only the cut needed small ones (to stop after the first).
    const resumed = await runMigrations(migrations, watchedSteps(rest));
    expect(resumed).toMatchObject({ from: 0, to: migrations.length, finished: true });
    expect(rest.filter((id) => first.includes(id))).toEqual([]);
    expect([...first, ...rest.filter((id) => oldIds.includes(id))].sort()).toEqual([...oldIds].sort());
    expect(await readSchemaVersion()).toBe(migrations.length);
  });

  it('migration 1: an organisation made before settings answers GET settings with the defaults', async () => {
    for (const org of oldOrganisations) {
      const res = await settingsOf(org);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.attributes).toEqual(SETTINGS_DEFAULTS);
    }
  });

  it('migration 2: a user made before administration is found by filter[status] and the name and e-mail sorts', async () => {
    const [first] = oldOrganisations as [(typeof oldOrganisations)[number]];
    expect(idsIn(await usersOf(first, ''))).toEqual([oldUser.id, newUser.id]);
    expect(idsIn(await usersOf(first, '?sort=-last_name'))).toEqual([newUser.id, oldUser.id]);
    expect(idsIn(await usersOf(first, '?sort=email'))).toEqual([oldUser.id, newUser.id]);
    expect(idsIn(await usersOf(first, '?filter[status]=active'))).toEqual([oldUser.id, newUser.id]);
    const res = await api.get(`/v3/users/${oldUser.id}`, first.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes.status).toBe('active');
  });

  it('migration 3: an equipment item written before the status index is found by filter[status]', async () => {
    const [first] = oldOrganisations as [(typeof oldOrganisations)[number]];
    expect(idsIn(await inRepair(first))).toEqual([oldItemId]);
  });

  it('migration id-directory: a record stored before the id directory gets the entry a create writes today', async () => {
    expect(migrations.map((m) => m.name)).toContain('id-directory');
    expect(await getItem(directoryKey(oldStreet.id))).toEqual(directoryEntry(oldStreet));
    const [first] = oldOrganisations as [(typeof oldOrganisations)[number]];
    const res = await api.get(`/v3/streets/${oldStreet.id}`, first.token);
    expect(res.status, res.text).toBe(200);
  });

  it("the status-count migration: an equipment item stored before statuses were counted is in its status's total", async () => {
    const second = oldOrganisations[1] as (typeof oldOrganisations)[number];
    expect(await lostOf(second)).toEqual({ ids: [uncountedItemId], total: 1 });
  });

  it('the vehicle status migration: a vehicle stored before its status had an index is found and counted by filter[status]', async () => {
    const second = oldOrganisations[1] as (typeof oldOrganisations)[number];
    expect(await offRoadOf(second)).toEqual({ ids: [oldVehicleId], total: 1 });
  });

  it('a second run reads nothing but the schema version and writes nothing', async () => {
    await writes.since();
    const again = await migrate();
    expect(again).toEqual({ from: migrations.length, to: migrations.length, ran: [], finished: true });
    expect(await writes.since()).toEqual([]);
  });

  it('every step is idempotent: run again from scratch, it changes no record, only its own progress', async () => {
    await Promise.all(
      [
        { pk: 'SCHEMA', sk: 'VERSION' },
        ...migrations.map((m) => ({ pk: `MIGRATION#${m.version}`, sk: 'STATE' })),
      ].map((Key) => documents.send(new DeleteCommand({ TableName: tableName, Key }))),
    );
    await writes.since();
    const rerun = await migrate();
    expect(rerun.finished).toBe(true);
    expect(rerun.ran.map((m) => m.changed)).toEqual(migrations.map(() => 0));
    const keys = (await writes.since()).map((r) => String(r.dynamodb?.Keys?.pk?.S));
    expect(keys.filter((pk) => pk !== 'SCHEMA' && !pk.startsWith('MIGRATION#'))).toEqual([]);
  });
});
