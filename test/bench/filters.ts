/**
 * Filtered pages of one organisation's 10,000 equipment items and 10,000 locations (issue 42): the items
 * DynamoDB read and the calls each page made, by offset and by cursor, counted on the service's own client.
 * Seeded with BatchWriteItem through the repository with the counter items their creates would keep
 * (`bulkPutCounted`), not the API: 1 in 100 items `in_repair`, one a minute over a week, so
 * `created_at.since` a day before the last matches about 1 in 7; 1 in 100 locations share a name; 1 in 100
 * vehicles `off_road`; the work hierarchy's nodes are `filters-projects.ts`'s.
 */

import { equipmentItems, vehicles } from '#functions/assets/definitions';
import { locations } from '#functions/places/definitions';
import { uuidv7 } from '#shared/data/ids';
import { scopeOf } from '#shared/data/scope';
import { listResources } from '#shared/engine/collection';
import type { ResourceDefinition } from '#shared/engine/declaration';
import { newRecord } from '#shared/engine/record-writes';
import { bulkPutCounted } from '../support/counted-seed';
import { itemsRead } from '../support/query-scans';
import { benchProjectFilters } from './filters-projects';

const MINUTE = 60_000;

/** The `page[cursor]` of a page's `links.next`, if it has one. */
const nextCursor = (links: Record<string, unknown> | undefined): string | undefined => {
  const next = links?.next;
  return typeof next === 'string' ? (new URL(next).searchParams.get('page[cursor]') ?? undefined) : undefined;
};

/** One organisation's collection page by `query`, read through the engine, with what it read. */
const list = (org: string, definition: ResourceDefinition, query: Record<string, string>) =>
  itemsRead(() =>
    listResources(
      {
        method: 'GET',
        baseUrl: 'https://bench.example',
        path: `/v3/orgs/${org}/${definition.type}`,
        query,
        scope: scopeOf([org]),
      },
      definition,
    ),
  ).then(
    ({ result, reads }) => ({ result, reads }),
    (error: Error) => ({ result: null, reads: [], error: error.message }),
  );

/**
 * What `pages` pages of one filtered query returned and read (items, the ratio, calls), following the
 * cursor when the query asks for one; a refused query's reason.
 */
export const filteredPageFigure = async (
  org: string,
  definition: ResourceDefinition,
  query: Record<string, string>,
  pages = 1,
) => {
  const out: string[] = [];
  let cursor: string | undefined = 'page[cursor]' in query ? '' : undefined;
  for (let page = 1; page <= pages; page++) {
    const asked = cursor === undefined ? query : { ...query, 'page[cursor]': cursor };
    const { result, reads, ...rest } = await list(org, definition, asked);
    if (!result) return `refused: ${'error' in rest ? rest.error : ''}`;
    const read = reads.reduce((sum, r) => sum + r.items, 0);
    const returned = result.data.length;
    out.push(
      `${returned} returned, ${read} items read (${(read / Math.max(1, returned)).toFixed(2)}×), ${reads.length} calls`,
    );
    cursor = nextCursor(result.links as Record<string, unknown> | undefined);
    if (cursor === undefined) break;
  }
  return out.join('; then ');
};

export const benchFilters = async (count: number) => {
  const org = uuidv7();
  const start = Date.UTC(2026, 0, 1);
  const items = Array.from({ length: count }, (_, i) =>
    newRecord(
      equipmentItems,
      org,
      {
        attributes: {
          serial: `SN-${String(i).padStart(6, '0')}`,
          status: i % 100 === 37 ? 'in_repair' : 'active',
          reference: `R${i}`,
        },
      },
      new Date(start + i * MINUTE),
    ),
  );
  const places = Array.from({ length: count }, (_, i) =>
    newRecord(
      locations,
      org,
      {
        attributes: {
          name: `Depot ${String(i % Math.ceil(count / 100)).padStart(5, '0')}`,
          reference: `LOC-${String(i).padStart(6, '0')}`,
          location: { latitude: 50 + (i % 100) / 100, longitude: -1 + Math.floor(i / 100) / 100 },
        },
      },
      new Date(start + i * MINUTE),
    ),
  );
  const fleet = Array.from({ length: count }, (_, i) =>
    newRecord(
      vehicles,
      org,
      {
        attributes: {
          registration: `REG ${String(i).padStart(6, '0')}`,
          status: i % 100 === 37 ? 'off_road' : 'active',
        },
      },
      new Date(start + i * MINUTE),
    ),
  );
  await bulkPutCounted([...items, ...places, ...fleet]);
  const since = new Date(start + (count - 24 * 60) * MINUTE).toISOString();
  const serial = `SN-${String(Math.floor(count / 3)).padStart(6, '0')}`;
  const figure = (
    query: Record<string, string>,
    pages = 1,
    definition: ResourceDefinition = equipmentItems,
  ) => filteredPageFigure(org, definition, query, pages);
  const limit = { 'page[limit]': '25' };
  const cursor = { ...limit, 'page[cursor]': '' };
  return {
    equipment_items: count,
    serial_offset: await figure({ ...limit, 'filter[serial]': serial }),
    serial_cursor: await figure({ ...cursor, 'filter[serial]': serial }),
    serial_cursor_page_1: await figure({ 'page[limit]': '1', 'page[cursor]': '', 'filter[serial]': serial }),
    status_offset: await figure({ ...limit, 'filter[status]': 'in_repair' }),
    status_cursor_pages_1_2: await figure({ ...cursor, 'filter[status]': 'in_repair' }, 2),
    status_sorted_by_serial_offset: await figure({ ...limit, 'filter[status]': 'in_repair', sort: 'serial' }),
    created_since_offset: await figure({ ...limit, 'filter[created_at.since]': since }),
    created_since_cursor_pages_1_2: await figure({ ...cursor, 'filter[created_at.since]': since }, 2),
    status_and_created_since_cursor: await figure({
      ...cursor,
      'filter[status]': 'in_repair',
      'filter[created_at.since]': since,
    }),
    reference_alone_cursor: await figure({ ...cursor, 'filter[reference]': 'R5000' }),
    status_offset_page_3: await figure({ ...limit, 'page[offset]': '50', 'filter[status]': 'in_repair' }),
    locations: count,
    location_reference_offset: await figure({ ...limit, 'filter[reference]': 'LOC-005000' }, 1, locations),
    location_reference_cursor: await figure({ ...cursor, 'filter[reference]': 'LOC-005000' }, 1, locations),
    location_name_offset: await figure({ ...limit, 'filter[name]': 'Depot 00042' }, 1, locations),
    location_name_cursor_pages_1_2: await figure({ ...cursor, 'filter[name]': 'Depot 00042' }, 2, locations),
    location_created_since_cursor: await figure(
      { ...cursor, 'filter[created_at.since]': since, sort: 'created_at' },
      2,
      locations,
    ),
    location_name_in_box_cursor: await figure(
      {
        ...cursor,
        'filter[name]': 'Depot 00042',
        'filter[location.box.bottom_left]': '50,-1',
        'filter[location.box.top_right]': '51,0',
      },
      1,
      locations,
    ),
    vehicles: count,
    vehicle_registration_offset: await figure(
      { ...limit, 'filter[registration]': 'REG 005000' },
      1,
      vehicles,
    ),
    vehicle_status_offset: await figure(
      { ...limit, 'filter[status]': 'off_road', sort: 'created_at' },
      1,
      vehicles,
    ),
    vehicle_status_cursor_pages_1_2: await figure(
      { ...cursor, 'filter[status]': 'off_road', sort: 'created_at' },
      2,
      vehicles,
    ),
    vehicle_status_by_registration_offset: await figure(
      { ...limit, 'filter[status]': 'off_road' },
      1,
      vehicles,
    ),
    reference_with_status_cursor: await figure({
      ...cursor,
      'filter[status]': 'in_repair',
      'filter[reference]': 'R5037',
    }),
    ...(await benchProjectFilters(org, count, start, figure)),
  };
};
