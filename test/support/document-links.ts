/**
 * Issue 17, item 5, checked on every response an API test sees: a successful document whose primary data
 * is one resource carries top-level `links.self`; a collection carries `self`, `first`, `prev`, `next`
 * and `last`, the paging links agreeing with `meta.pagination`; a feed read with a cursor (issue 18's
 * change feed), `self` and `next`: the same query after the last item it answered, if any; a collection
 * page read by `page[cursor]` (issue 19), `self`, `first` and `next`, each the same query with only
 * `page[cursor]` changed, `next` null after a page shorter than asked for. `self` of a GET is the
 * request's own URL.
 */
import { expect } from 'vitest';

type Links = Record<string, unknown>;

/** A URL's path and decoded query, to compare links written with different (valid) encodings. */
const sameTarget = (link: unknown, url: string) => {
  const a = new URL(String(link));
  const b = new URL(url);
  return a.origin === b.origin && a.pathname === b.pathname && `${a.searchParams}` === `${b.searchParams}`;
};

/** The page offset a paging link names, in either parameter form. */
const offsetOf = (link: unknown): number | null => {
  if (link === null) return null;
  const params = new URL(String(link)).searchParams;
  return Number(params.get('page[offset]') ?? params.get('offset'));
};

export const expectDocumentLinks = (
  method: string,
  requestUrl: string,
  response: { status: number; body: unknown },
) => {
  if (response.status < 200 || response.status > 299) return;
  const document = response.body as { data?: unknown; links?: Links; meta?: Record<string, unknown> };
  if (typeof document !== 'object' || document === null || !('data' in document)) return;
  const { data, links = {} } = document;
  const where = `${method} ${requestUrl}`;
  if (Array.isArray(data) && new URL(requestUrl).pathname.includes('/relationships/')) {
    // A to-many relationship's linkage: its own URL, and the record it belongs to.
    expect(Object.keys(links).sort(), `${where}: a relationship's links`).toEqual(['related', 'self']);
    expect(sameTarget(links.self, requestUrl), `${where}: links.self`).toBe(true);
  } else if (Array.isArray(data) && document.meta?.pagination === undefined) {
    expect(Object.keys(links).sort(), `${where}: a feed's links`).toEqual(['next', 'self']);
    expect(sameTarget(links.self, requestUrl), `${where}: links.self`).toBe(true);
    const next = new URL(String(links.next));
    const last = (data.at(-1) as { id?: string } | undefined)?.id;
    const given = new URL(requestUrl).searchParams.get('cursor');
    // After the last event answered, or after events it passed over unseen.
    if (last !== undefined)
      expect((next.searchParams.get('cursor') ?? '') >= last, `${where}: links.next`).toBe(true);
    else if (given !== null) expect(next.searchParams.get('cursor'), `${where}: links.next`).not.toBeNull();
    next.searchParams.delete('cursor');
    const same = new URL(requestUrl);
    same.searchParams.delete('cursor');
    expect(sameTarget(next, same.href), `${where}: links.next is the same query`).toBe(true);
  } else if (
    Array.isArray(data) &&
    // A page read by cursor: asked for by `page[cursor]`, or the first page of a list that pages by cursor
    // only (the inbox), whose meta says it read from the start.
    (new URL(requestUrl).searchParams.has('page[cursor]') ||
      (document.meta?.pagination as { requested?: { cursor?: string } } | undefined)?.requested?.cursor ===
        '')
  ) {
    expect(Object.keys(links).sort(), `${where}: a cursor page's links`).toEqual(['first', 'next', 'self']);
    if (method === 'GET') expect(sameTarget(links.self, requestUrl), `${where}: links.self`).toBe(true);
    const pagination = document.meta?.pagination as { requested: { limit: number; cursor: string } };
    const withCursor = (cursor: string) => {
      const url = new URL(requestUrl);
      url.searchParams.set('page[cursor]', cursor);
      return url.href;
    };
    expect(pagination.requested.cursor, `${where}: meta.pagination.requested`).toBe(
      new URL(requestUrl).searchParams.get('page[cursor]') ?? '',
    );
    expect(sameTarget(links.first, withCursor('')), `${where}: links.first`).toBe(true);
    if (data.length < pagination.requested.limit) expect(links.next, `${where}: links.next`).toBeNull();
    else {
      const cursor = new URL(String(links.next)).searchParams.get('page[cursor]') ?? '';
      expect(cursor, `${where}: links.next carries a cursor`).not.toBe('');
      expect(sameTarget(links.next, withCursor(cursor)), `${where}: links.next is the same query`).toBe(true);
    }
  } else if (Array.isArray(data)) {
    expect(Object.keys(links).sort(), `${where}: a collection's links`).toEqual(
      ['first', 'last', 'next', 'prev', 'self'].sort(),
    );
    if (method === 'GET') expect(sameTarget(links.self, requestUrl), `${where}: links.self`).toBe(true);
    const pagination = document.meta?.pagination as
      | { offsets: { previous: number | null; next: number | null } }
      | undefined;
    expect(pagination, `${where}: meta.pagination`).toBeDefined();
    expect(offsetOf(links.first), `${where}: links.first`).toBe(0);
    expect(offsetOf(links.prev), `${where}: links.prev`).toBe(pagination?.offsets.previous);
    expect(offsetOf(links.next), `${where}: links.next`).toBe(pagination?.offsets.next);
    expect(typeof links.last, `${where}: links.last`).toBe('string');
  } else if (typeof data === 'object' && data !== null && 'attributes' in data) {
    // One resource object (a relationship endpoint's identifier has no attributes and no self).
    const own = (data as { links?: Links }).links?.self;
    expect(typeof links.self, `${where}: top-level links.self`).toBe('string');
    if (method === 'GET') expect(sameTarget(links.self, requestUrl), `${where}: links.self`).toBe(true);
    else expect(links.self, `${where}: links.self of a write is the record's own URL`).toBe(own);
  }
};
