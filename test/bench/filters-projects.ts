/**
 * The filters section's work hierarchy (issue 42, item 1): one organisation's schemes, work orders and
 * operations, filtered pages read as `filters.ts` reads the others. `count` work orders under
 * `count / 10` schemes (10 each), `count` operations under the first quarter of the work orders (4 each);
 * names repeat 1 in 100, codes are unique, 1 in 100 work orders `done` and operations `in_progress`.
 */
import { operations, schemes, workOrders } from '#functions/projects/definitions';
import type { StoredResource } from '#shared/data/stored-resource';
import { treeKeys } from '#shared/data/trees';
import type { ResourceDefinition } from '#shared/engine/declaration';
import { newRecord } from '#shared/engine/record-writes';
import { bulkPutHierarchy } from '../support/hierarchy-seed';

const MINUTE = 60_000;

type Figure = (
  query: Record<string, string>,
  pages?: number,
  definition?: ResourceDefinition,
) => Promise<string>;

export const benchProjectFilters = async (org: string, count: number, start: number, figure: Figure) => {
  const node = (definition: ResourceDefinition, i: number, attributes: object, parent?: StoredResource) => {
    const record = newRecord(
      definition,
      org,
      {
        attributes: {
          name: `${definition.type} ${String(i % Math.ceil(count / 100)).padStart(5, '0')}`,
          code: `${definition.type.slice(0, 2).toUpperCase()}-${String(i).padStart(6, '0')}`,
          ...attributes,
        },
        rels: parent ? { [parent.type === 'schemes' ? 'scheme' : 'work_order']: parent.id } : {},
      },
      new Date(start + i * MINUTE),
    );
    const path = parent ? `${parent.tree_path}/${record.id}` : record.id;
    return { ...record, ...treeKeys(org, parent?.tree_root ?? record.id, path) };
  };
  const schemeNodes = Array.from({ length: count / 10 }, (_, i) =>
    node(schemes, i, { status: 'in_planning' }),
  );
  const workOrderNodes = Array.from({ length: count }, (_, i) =>
    node(workOrders, i, { status: i % 100 === 37 ? 'done' : 'todo' }, schemeNodes[i % schemeNodes.length]),
  );
  const operationNodes = Array.from({ length: count }, (_, i) =>
    node(
      operations,
      i,
      { status: i % 100 === 37 ? 'in_progress' : 'todo' },
      workOrderNodes[Math.floor(i / 4)],
    ),
  );
  await bulkPutHierarchy([...schemeNodes, ...workOrderNodes, ...operationNodes]);
  const since = new Date(start + (count - 24 * 60) * MINUTE).toISOString();
  const limit = { 'page[limit]': '25' };
  const cursor = { ...limit, 'page[cursor]': '' };
  const byCreation = { sort: 'created_at' };
  const scheme = String(schemeNodes[42]?.id);
  const workOrder = String(workOrderNodes[42]?.id);
  return {
    schemes: schemeNodes.length,
    scheme_code_offset: await figure({ ...limit, 'filter[code]': 'SC-000042' }, 1, schemes),
    scheme_name_cursor: await figure({ ...cursor, 'filter[name]': 'schemes 00042' }, 1, schemes),
    scheme_status_offset: await figure(
      { ...limit, ...byCreation, 'filter[status]': 'in_planning' },
      1,
      schemes,
    ),
    work_orders: workOrderNodes.length,
    work_order_code_offset: await figure({ ...limit, 'filter[code]': 'WO-005000' }, 1, workOrders),
    work_order_name_cursor_pages_1_2: await figure(
      { ...cursor, 'filter[name]': 'work-orders 00042' },
      2,
      workOrders,
    ),
    work_order_status_offset: await figure(
      { ...limit, ...byCreation, 'filter[status]': 'done' },
      1,
      workOrders,
    ),
    work_order_status_cursor_pages_1_2: await figure(
      { ...cursor, ...byCreation, 'filter[status]': 'done' },
      2,
      workOrders,
    ),
    work_order_status_by_name_offset: await figure({ ...limit, 'filter[status]': 'done' }, 1, workOrders),
    work_order_created_since_cursor: await figure(
      { ...cursor, ...byCreation, 'filter[created_at.since]': since },
      1,
      workOrders,
    ),
    work_order_scheme_offset: await figure({ ...limit, 'filter[scheme]': scheme }, 1, workOrders),
    work_order_scheme_and_status_cursor: await figure(
      { ...cursor, 'filter[scheme]': scheme, 'filter[status]': 'todo' },
      1,
      workOrders,
    ),
    operations: operationNodes.length,
    operation_status_offset: await figure(
      { ...limit, ...byCreation, 'filter[status]': 'in_progress' },
      1,
      operations,
    ),
    operation_work_order_cursor: await figure({ ...cursor, 'filter[work_order]': workOrder }, 1, operations),
    operation_code_cursor: await figure({ ...cursor, 'filter[code]': 'OP-005000' }, 1, operations),
  };
};
