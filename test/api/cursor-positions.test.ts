/**
 * A cursor is sealed, so only the service makes one; but a release may change how a list is read (an index
 * where a partition was, records in hand where an index was), and a cursor an earlier release gave then
 * reaches a reader that did not make its position. Each reader refuses a position it did not make, and the
 * page that opened the cursor answers 400 naming `page[cursor]`, saying to start again: never a 500, never
 * a read from a key that is not one. The cursors here are sealed as the service seals them
 * (shared/jsonapi/cursor.ts) for the very query they are sent with, each holding another reader's position.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemes, workOrders } from '#functions/projects/definitions';
import { siteAttendances } from '#functions/site-attendances/definitions';
import { cursorKey } from '#shared/data/cursor-key';
import { scopeOf } from '#shared/data/scope';
import { cursorBinding } from '#shared/engine/collection';
import type { ResourceDefinition } from '#shared/engine/declaration';
import { parseCollectionQuery } from '#shared/jsonapi/collection-query';
import { sealCursor } from '#shared/jsonapi/cursor';
import { startTestApi, type TestApi } from '../support/api';
import { newTenant, type Tenant } from '../support/tenants';

let api: TestApi;
let tenant: Tenant;
let token: string;
let scheme: string;
let site: string;

const org = () => tenant.org.id;
const post = async (path: string, data: object) => {
  const res = await api.request('POST', `/v3/orgs/${org()}/${path}`, { token, body: { data } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};

beforeAll(async () => {
  api = await startTestApi();
  tenant = await newTenant('Cursor positions', 0);
  token = await api.token(tenant.admin);
  scheme = await post('projects/schemes', { type: 'schemes', attributes: { name: 'Positions' } });
  await post('projects/schemes', { type: 'schemes', attributes: { name: 'Others' } });
  for (const name of ['Trench', 'Kerb', 'Duct'])
    await post('projects/work-orders', {
      type: 'work-orders',
      attributes: { name },
      relationships: { scheme: { data: { type: 'schemes', id: scheme } } },
    });
  site = await post('governance/locations', { type: 'locations', attributes: { name: 'Depot' } });
  for (const name of ['Ann', 'Bo', 'Cy'])
    await post('site-attendances', {
      type: 'site-attendances',
      attributes: { method_in: 'kiosk', attendee_kind: 'visitor', guest: { name } },
      relationships: { location: { data: { type: 'locations', id: site } } },
    });
}, 60_000);
afterAll(() => api.close());

/** `position` sealed for `query` on `path`, as `readPage` seals a page's next position. */
const sealed = async (
  definition: ResourceDefinition,
  path: string,
  query: Record<string, string>,
  position: object,
) => {
  const options = definition.collection;
  if (!options) throw new Error(`${definition.type} has no collection`);
  const parsed = parseCollectionQuery({ ...query, 'page[cursor]': '' }, options);
  return sealCursor(await cursorKey(), cursorBinding({ path, scope: scopeOf([org()]) }, parsed), position);
};

const page = (path: string, query: Record<string, string>, cursor: string) =>
  api.get(`${path}?${new URLSearchParams({ ...query, 'page[limit]': '1', 'page[cursor]': cursor })}`, token);

/** The position a cursor holds (its payload: readers' JSON, base64url). */
const positionIn = (cursor: string) =>
  JSON.parse(Buffer.from(cursor.split('.')[0] ?? '', 'base64url').toString());

const someId = '019ca6d7-6560-75bc-bcfc-2e7f674faf03';
/** A position of each reader but the one a case reads through, plus positions no reader makes. */
const positions = () => ({
  memory: { value: 'kerb', id: someId },
  // A sort value with a key, no id: the in-memory read compared it with a record of the same value by id.
  valued: { value: 'kerb', sk: someId },
  table: { pk: `ORG#${org()}#work-orders`, sk: someId },
  gsi2: {
    pk: `ORG#${org()}#work-orders`,
    sk: someId,
    gsi2pk: `ORG#${org()}#work-orders`,
    gsi2sk: `status#todo#${someId}`,
  },
  month: {
    pk: `ORG#${org()}#site-attendances#2027-01`,
    sk: someId,
    lsi2: `${site}#2027-01-02T00:00:00.000Z`,
  },
  partitions: { [org()]: { sk: someId } },
  idless: { value: 'kerb', id: 7 },
  list: [someId],
});

interface ReaderCase {
  reader: string;
  definition: ResourceDefinition;
  path: string;
  query: Record<string, string>;
  /** The positions it must refuse. */
  unfit: readonly (keyof ReturnType<typeof positions>)[];
}

const cases = (): ReaderCase[] => [
  {
    reader: 'the in-memory sorted read (a scheme’s work orders by name)',
    definition: workOrders,
    path: `/v3/orgs/${org()}/projects/work-orders`,
    query: { 'filter[scheme]': scheme },
    unfit: ['valued', 'table', 'gsi2', 'month', 'partitions', 'idless', 'list'],
  },
  {
    reader: 'the index read (work orders under a status, on gsi2, in creation order)',
    definition: workOrders,
    path: `/v3/orgs/${org()}/projects/work-orders`,
    query: { 'filter[status]': 'todo', sort: 'created_at' },
    unfit: ['memory', 'valued', 'table', 'month', 'partitions', 'idless', 'list'],
  },
  {
    reader: 'the bucketed read (a site’s attendances, month after month on lsi2)',
    definition: siteAttendances,
    path: `/v3/orgs/${org()}/site-attendances`,
    query: { 'filter[location]': site },
    // `month` is a position of this reader's shape, in a month the walk does not start in.
    unfit: ['memory', 'valued', 'table', 'gsi2', 'month', 'partitions', 'idless', 'list'],
  },
  {
    reader: 'the partition read (schemes by name, on lsi1)',
    definition: schemes,
    path: `/v3/orgs/${org()}/projects/schemes`,
    query: { sort: 'name' },
    // Without the name's index value, a partition position names no key of lsi1.
    unfit: ['memory', 'valued', 'table', 'gsi2', 'month', 'partitions', 'idless', 'list'],
  },
];

describe('a sealed cursor whose position its reader did not make is a 400 naming page[cursor], never a 500', () => {
  it('a position the reader made, sealed the same way, reads the next page (the cursors below differ in their position alone)', async () => {
    for (const { reader, definition, path, query } of cases()) {
      const first = await page(path, query, '');
      expect(first.status, first.text).toBe(200);
      const next = new URL(first.body.links.next).searchParams.get('page[cursor]') ?? '';
      const resealed = await sealed(definition, path, query, positionIn(next));
      const [given, ours] = await Promise.all([page(path, query, next), page(path, query, resealed)]);
      expect(ours.status, `${reader}: ${ours.text}`).toBe(200);
      expect(ours.body.data, reader).toEqual(given.body.data);
      expect(ours.body.data, reader).toHaveLength(1);
    }
  });

  it('each other reader’s position, and one no reader makes, is a 400 saying to start again from the first page', async () => {
    const all = positions();
    for (const { reader, definition, path, query, unfit } of cases()) {
      for (const name of unfit) {
        const res = await page(path, query, await sealed(definition, path, query, all[name]));
        expect(res.status, `${reader} given ${name}: ${res.text}`).toBe(400);
        expect(res.body.errors[0].source, `${reader} given ${name}`).toEqual({ parameter: 'page[cursor]' });
        expect(res.body.errors[0].detail, `${reader} given ${name}`).toMatch(
          /start again from the first page/,
        );
      }
    }
  });
});
