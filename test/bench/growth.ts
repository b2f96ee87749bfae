/**
 * Flat reads as a collection grows (issue 42, item 4): one organisation's equipment items (the indexed
 * type) at each size asked, seeded with BatchWriteItem in the stored shape (`bulkPut`, as filters.ts),
 * with the type's counter, then read through the collection engine: the first page, a cursor page half
 * way in, an indexed filter (`filter[status]`, 1 in 100) and an index-backed sort (`sort=serial`, first
 * page and a cursor page half way in). Each figure is items read and calls against the minimum: the
 * items returned, and the counter item an unfiltered total reads.
 */

import { equipmentItems } from '#functions/assets/definitions';
import { bulkPut } from '#shared/data/bulk';
import { uuidv7 } from '#shared/data/ids';
import { scopeOf } from '#shared/data/scope';
import { counterKey } from '#shared/data/stored-resource';
import { listResources } from '#shared/engine/collection';
import { newRecord } from '#shared/engine/record-writes';
import { itemsRead } from '../support/query-scans';

const MINUTE = 60_000;
const PAGE = '25';

const nextCursor = (links: Record<string, unknown> | undefined): string | undefined => {
  const next = links?.next;
  return typeof next === 'string' ? (new URL(next).searchParams.get('page[cursor]') ?? undefined) : undefined;
};

const seed = async (count: number) => {
  const org = uuidv7();
  const start = Date.UTC(2026, 0, 1);
  const items = Array.from({ length: count }, (_, i) =>
    newRecord(
      equipmentItems,
      org,
      {
        attributes: {
          // Serials in an order of their own, so `sort=serial` is not creation order.
          serial: `SN-${String((i * 7_919) % count).padStart(7, '0')}`,
          status: i % 100 === 37 ? 'in_repair' : 'active',
          reference: `R${i}`,
        },
      },
      new Date(start + i * MINUTE),
    ),
  );
  const started = performance.now();
  await bulkPut(
    [...(items as unknown as Record<string, unknown>[]), { ...counterKey(org, 'equipment-items'), count }],
    8,
  );
  return { org, seconds: (performance.now() - started) / 1000 };
};

export const benchGrowth = async (sizes: readonly number[]) => {
  const rows: Record<string, string> = {};
  for (const size of sizes) {
    const { org, seconds } = await seed(size);
    rows[`${size.toLocaleString('en-GB')}: seeded in`] =
      `${seconds.toFixed(1)} s (BatchWriteItem, 8 in flight)`;
    const path = `/v3/orgs/${org}/assets/equipment`;
    const list = (query: Record<string, string>) =>
      listResources(
        { method: 'GET', baseUrl: 'https://bench.example', path, query, scope: scopeOf([org]) },
        equipmentItems,
      );
    /** The page at a query, counted; `minimum` what the answer needs (its items, and the counter when totalled). */
    const figure = async (query: Record<string, string>) => {
      const { result, reads } = await itemsRead(() => list(query));
      const read = reads.reduce((sum, r) => sum + r.items, 0);
      // An unfiltered answer's total is the type's counter item: one more item it needs.
      const filtered = Object.keys(query).some((k) => k.startsWith('filter['));
      const minimum = result.data.length + (filtered ? 0 : 1);
      return `${read} items read in ${reads.length} calls; minimum ${minimum} (${(read / Math.max(1, minimum)).toFixed(2)}×)`;
    };
    /** The cursor half way through a walk of `query` (pages of 100, not counted), for a page of 25 from there. */
    const halfWay = async (query: Record<string, string>) => {
      let cursor = '';
      for (let seen = 0; seen < size / 2; seen += 100) {
        const { links } = await list({ ...query, 'page[limit]': '100', 'page[cursor]': cursor });
        cursor = nextCursor(links as Record<string, unknown> | undefined) ?? cursor;
      }
      return cursor;
    };
    const at = (name: string) => `${size.toLocaleString('en-GB')}: ${name}`;
    rows[at('first page')] = await figure({ 'page[limit]': PAGE });
    rows[at('cursor page half way in')] = await figure({
      'page[limit]': PAGE,
      'page[cursor]': await halfWay({}),
    });
    const status = { 'page[limit]': PAGE, 'filter[status]': 'in_repair' };
    // By offset a filtered page totals its matches, so it reads them all (a count per value is item 1's).
    rows[at('filter[status] (1 in 100), offset page 1, totalled')] = await figure(status);
    rows[at('filter[status], cursor page 1')] = await figure({ ...status, 'page[cursor]': '' });
    rows[at('filter[status], cursor page 2')] = await (async () => {
      const first = await list({ ...status, 'page[cursor]': '' });
      const cursor = nextCursor(first.links as Record<string, unknown> | undefined) ?? '';
      return figure({ ...status, 'page[cursor]': cursor });
    })();
    rows[at('sort=serial, first page')] = await figure({ 'page[limit]': PAGE, sort: 'serial' });
    rows[at('sort=serial, cursor page half way in')] = await figure({
      'page[limit]': PAGE,
      sort: 'serial',
      'page[cursor]': await halfWay({ sort: 'serial' }),
    });
  }
  return rows;
};
