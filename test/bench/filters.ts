/**
 * Filtered pages of one organisation's 10,000 equipment items and 10,000 locations (issue 42): the items
 * DynamoDB read and the calls each page made, by offset and by cursor, counted on the service's own client.
 * Seeded with BatchWriteItem through the repository with the counter items their creates would keep
 * (`bulkPutCounted`), not the API: 1 in 100 items `in_repair`, one a minute over a week, so
 * `created_at.since` a day before the last matches about 1 in 7; 1 in 100 locations share a name; 1 in 100
 * vehicles `off_road`; folders under 100 parents (a folder's subfolders: 1 in 100), 1 in 100 filed under a
 * scheme, names shared by 100; comments on 10 records (1,000 a record at 10,000); one folder of documents,
 * 1 in 100 pending.
 * The work hierarchy's nodes are `filters-projects.ts`'s.
 */

import { equipmentItems, vehicles } from '#functions/assets/definitions';
import { comments } from '#functions/comments/definitions';
import { commentsIndexKey } from '#functions/comments/subject-index';
import { documents, folders } from '#functions/documents/definitions';
import { locations } from '#functions/places/definitions';
import { fileUnder } from '#shared/data/children';
import { uuidv7 } from '#shared/data/ids';
import { scopeOf } from '#shared/data/scope';
import { fileChild, listChildren } from '#shared/engine/children';
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

/**
 * One organisation's collection page by `query`, read through the engine, with what it read; a folder's
 * documents are listed under it (GET /v3/folders/{folder_id}/documents).
 */
const list = (
  org: string,
  definition: ResourceDefinition,
  query: Record<string, string>,
  folderId?: string,
) =>
  itemsRead(() => {
    const request = {
      method: 'GET',
      baseUrl: 'https://bench.example',
      path: `/v3/orgs/${org}/${definition.type}`,
      query,
      scope: scopeOf([org]),
    };
    return folderId
      ? listChildren(request, folders, folderId, definition)
      : listResources(request, definition);
  }).then(
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
  folderId?: string,
) => {
  const out: string[] = [];
  let cursor: string | undefined = 'page[cursor]' in query ? '' : undefined;
  for (let page = 1; page <= pages; page++) {
    const asked = cursor === undefined ? query : { ...query, 'page[cursor]': cursor };
    const { result, reads, ...rest } = await list(org, definition, asked, folderId);
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
  const parents = Array.from({ length: 100 }, () => uuidv7());
  const scheme = uuidv7();
  const subjects = Array.from({ length: 10 }, () => uuidv7());
  const subject = subjects[3] ?? '';
  const tree = Array.from({ length: count }, (_, i) =>
    newRecord(
      folders,
      org,
      {
        attributes: { name: `Folder ${String(i % Math.ceil(count / 100)).padStart(5, '0')}` },
        rels: { parent: parents[i % 100] ?? null, ...(i % 100 === 37 && { scheme }) },
      },
      new Date(start + i * MINUTE),
    ),
  );
  const said = Array.from({ length: count }, (_, i) => {
    const on = subjects[i % 10] ?? '';
    const record = newRecord(
      comments,
      org,
      { attributes: { body: `Comment ${i}`, subject: { type: 'schemes', id: on } } },
      new Date(start + i * MINUTE),
    );
    return fileUnder(record, commentsIndexKey(on));
  });
  // One folder of `count` documents: 1 in 100 pending, three content types.
  const shelf = newRecord(folders, org, { attributes: { name: 'Shelf' } }, new Date(start - MINUTE));
  const filed = Array.from({ length: count }, (_, i) =>
    fileChild(
      shelf,
      newRecord(
        documents,
        org,
        {
          attributes: {
            name: `Doc ${String(i).padStart(6, '0')}`,
            status: i % 100 === 37 ? 'pending' : 'available',
            content_type: i % 100 === 37 ? null : ['application/pdf', 'image/png', 'text/plain'][i % 3],
            size: 1,
            checksum: null,
            version_count: 1,
          },
          rels: { folder: shelf.id, current_version: null },
        },
        new Date(start + i * MINUTE),
      ),
    ),
  );
  await bulkPutCounted([...items, ...places, ...fleet, ...tree, ...said, shelf, ...filed]);
  const since = new Date(start + (count - 24 * 60) * MINUTE).toISOString();
  const serial = `SN-${String(Math.floor(count / 3)).padStart(6, '0')}`;
  const figure = (
    query: Record<string, string>,
    pages = 1,
    definition: ResourceDefinition = equipmentItems,
  ) => filteredPageFigure(org, definition, query, pages, definition === documents ? shelf.id : undefined);
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
    // A common status (99 %) in a sort its own index keeps: that index, read with the filter.
    active_sorted_by_serial_cursor_pages_1_2: await figure(
      { ...cursor, 'filter[status]': 'active', sort: 'serial' },
      2,
    ),
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
    vehicle_active_by_registration_cursor: await figure(
      { ...cursor, 'filter[status]': 'active' },
      1,
      vehicles,
    ),
    folders: count,
    folder_parent_cursor_pages_1_2: await figure(
      { ...cursor, 'filter[parent]': parents[37] ?? '', sort: 'created_at' },
      2,
      folders,
    ),
    folder_parent_by_name_offset: await figure({ ...limit, 'filter[parent]': parents[37] ?? '' }, 1, folders),
    folder_scheme_cursor: await figure(
      { ...cursor, 'filter[scheme]': scheme, sort: 'created_at' },
      1,
      folders,
    ),
    folder_name_cursor: await figure({ ...cursor, 'filter[name]': 'Folder 00042' }, 1, folders),
    folder_created_since_cursor: await figure(
      { ...cursor, 'filter[created_at.since]': since, sort: 'created_at' },
      1,
      folders,
    ),
    comments: count,
    comments_on_a_record_cursor: await figure({ ...cursor, 'filter[subject_id]': subject }, 1, comments),
    comments_on_a_record_since_cursor: await figure(
      { ...cursor, 'filter[subject_id]': subject, 'filter[created_at.since]': since },
      2,
      comments,
    ),
    comments_on_a_record_since_offset: await figure(
      { ...limit, 'filter[subject_id]': subject, 'filter[created_at.since]': since },
      1,
      comments,
    ),
    documents_in_a_folder: count,
    document_status_cursor: await figure(
      { ...cursor, 'filter[status]': 'pending', sort: 'created_at' },
      1,
      documents,
    ),
    document_status_by_name_offset: await figure({ ...limit, 'filter[status]': 'pending' }, 1, documents),
    document_content_type_cursor: await figure(
      { ...cursor, 'filter[content_type]': 'image/png', sort: 'created_at' },
      1,
      documents,
    ),
    document_created_since_cursor: await figure(
      { ...cursor, 'filter[created_at.since]': since, sort: 'created_at' },
      1,
      documents,
    ),
    reference_with_status_cursor: await figure({
      ...cursor,
      'filter[status]': 'in_repair',
      'filter[reference]': 'R5037',
    }),
    ...(await benchProjectFilters(org, count, start, figure)),
  };
};
