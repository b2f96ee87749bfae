/** Walks a collection by cursor from `first` (its `page[cursor]=` empty), following `links.next`: every id, in order. */
import { expect } from 'vitest';
import type { TestApi } from './api';

export const idsByCursor = async (api: TestApi, first: string, token: string): Promise<string[]> => {
  const ids: string[] = [];
  let next: string | null = first;
  while (next !== null) {
    const res = await api.get(next, token);
    expect(res.status, res.text).toBe(200);
    ids.push(...(res.body.data as { id: string }[]).map((r) => r.id));
    const link = res.body.links.next as string | null;
    next = link ? `${new URL(link).pathname}${new URL(link).search}` : null;
  }
  return ids;
};

/**
 * A filter answers the same by offset and by cursor walk: the first offset page (of 100) holds the first
 * `expected` ids, its total counts them all, and a walk of `walkLimit` a page gives each once. `ordered`
 * false where records tie on the sort and come in no order a test should rely on: the same set, each once.
 */
export const expectSameAnswers = async (
  api: TestApi,
  token: string,
  path: string,
  query: string,
  expected: readonly string[],
  { walkLimit = 7, ordered = true }: { walkLimit?: number; ordered?: boolean } = {},
): Promise<void> => {
  const res = await api.get(`${path}?${query}&page[limit]=100`, token);
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  const page = (res.body.data as { id: string }[]).map((r) => r.id);
  expect(res.body.meta.pagination.counts.resources, query).toBe(expected.length);
  const walked = await idsByCursor(api, `${path}?${query}&page[limit]=${walkLimit}&page[cursor]=`, token);
  if (ordered) {
    expect(page, query).toEqual(expected.slice(0, 100));
    expect(walked, query).toEqual(expected);
  } else {
    expect(new Set(page), query).toEqual(new Set(expected.slice(0, 100)));
    expect(new Set(walked), query).toEqual(new Set(expected));
    expect(walked, query).toHaveLength(expected.length);
  }
};
