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
