/**
 * What one page of a list reads, and the check every indexed filter's tests make of it (issue 42, item 1:
 * "items read ≤ 1.1× what it returns, with calls constant in page size"). Counted on the service's own
 * client (`query-scans.ts`), authentication's reads left out.
 */
import { expect } from 'vitest';
import type { TestApi } from './api';
import { itemsRead, type Read } from './query-scans';

export const itemsOf = (reads: Read[]): number => reads.reduce((sum, r) => sum + r.items, 0);

// biome-ignore lint/suspicious/noExplicitAny: a JSON:API document as the tests read it
type Body = any;

export interface MeasuredPage {
  body: Body;
  items: number;
  calls: number;
  reads: Read[];
}

/** A GET that answers 200, asked twice so the measured one finds the container warm. */
export const measuredGet = async (api: TestApi, token: string, path: string): Promise<MeasuredPage> => {
  await api.get(path, token);
  const { result, reads } = await itemsRead(() => api.get(path, token));
  expect(result.status, result.text).toBe(200);
  return { body: result.body, items: itemsOf(reads), calls: reads.length, reads };
};

export interface CursorPageRule {
  /** Two page sizes, so that calls constant in page size shows. */
  limits: [number, number];
  /** Every page is full (the query has more matches than the larger size), not only non-empty. */
  full?: boolean;
  /** Items read beside the page's own records (a parent read with its children). */
  besides?: number;
}

/**
 * Each list's first cursor page reads at most 1.1× the records it returns (plus `besides`), in the same
 * number of calls at both page sizes. Each path carries its query (`?filter[...]=...`); the page is added.
 */
export const expectCursorPagesRead = async (
  measure: (path: string) => Promise<MeasuredPage>,
  paths: string[],
  { limits, full = false, besides = 0 }: CursorPageRule,
): Promise<void> => {
  for (const path of paths) {
    const calls: number[] = [];
    for (const limit of limits) {
      const page = await measure(`${path}&page[limit]=${limit}&page[cursor]=`);
      const returned = page.body.data.length;
      if (full) expect(returned, path).toBe(limit);
      else expect(returned, path).toBeGreaterThan(0);
      expect(page.items, `${path} at ${limit}`).toBeLessThanOrEqual(Math.ceil(1.1 * returned) + besides);
      calls.push(page.calls);
    }
    expect(calls[0], path).toBe(calls[1]);
  }
};
