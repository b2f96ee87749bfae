/**
 * Issue 17, item 5: collections carry top-level `self`, `first`, `prev`, `next` and `last`, derived from
 * the request's own URL with only the paging parameters replaced; single-resource documents carry
 * `links.self`. `meta.pagination` and the links come from one computation of the page's offsets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceObject } from '#shared/jsonapi/document';
import {
  paginationLinks,
  type RequestTarget,
  requestLink,
  resourceSelf,
} from '#shared/jsonapi/document-links';
import { pageOffsets, paginationMeta } from '#shared/jsonapi/pagination';

const BASE = 'https://api.example';
const TEAMS = '/v3/orgs/0190f0a0-0000-7000-8000-000000000001/people/teams';
const target = (query: Record<string, string>, method = 'GET'): RequestTarget => ({
  method,
  baseUrl: BASE,
  path: TEAMS,
  query,
});
/** A link's query as name → value, decoded. */
const paramsOf = (link: string | null) => Object.fromEntries(new URL(link ?? '').searchParams);

describe('meta.pagination', () => {
  it('first page: previous offset is null, next is offset + limit', () => {
    expect(paginationMeta({ limit: 10, offset: 0 }, 25)).toEqual({
      current_page: 1,
      counts: { pages: 3, resources: 25 },
      requested: { limit: 10, offset: 0 },
      offsets: { previous: null, next: 10 },
    });
  });

  it('last page: next offset is null', () => {
    expect(paginationMeta({ limit: 10, offset: 20 }, 25).offsets).toEqual({ previous: 10, next: null });
    expect(paginationMeta({ limit: 10, offset: 20 }, 25).current_page).toBe(3);
  });

  it('beyond the end it still reports the collection, and previous is the last page (the way back)', () => {
    expect(paginationMeta({ limit: 10, offset: 100 }, 25)).toMatchObject({
      counts: { pages: 3, resources: 25 },
      offsets: { previous: 20, next: null },
    });
  });

  it('an empty collection has no pages', () => {
    expect(paginationMeta({ limit: 10, offset: 0 }, 0)).toMatchObject({
      counts: { pages: 0, resources: 0 },
      offsets: { previous: null, next: null },
    });
  });
});

describe('page offsets', () => {
  it('first is 0 and last the last page of limit records counted from 0 (0 when empty)', () => {
    expect(pageOffsets({ limit: 10, offset: 0 }, 25)).toEqual({ first: 0, prev: null, next: 10, last: 20 });
    expect(pageOffsets({ limit: 10, offset: 0 }, 30)).toMatchObject({ last: 20 });
    expect(pageOffsets({ limit: 10, offset: 0 }, 0)).toEqual({ first: 0, prev: null, next: null, last: 0 });
    expect(pageOffsets({ limit: 10, offset: 0 }, 1)).toEqual({ first: 0, prev: null, next: null, last: 0 });
  });

  it('an offset beyond the end leads back to the last page, or to the first when the collection is empty', () => {
    expect(pageOffsets({ limit: 10, offset: 1_000 }, 25)).toEqual({
      first: 0,
      prev: 20,
      next: null,
      last: 20,
    });
    expect(pageOffsets({ limit: 10, offset: 30 }, 0)).toMatchObject({ prev: 0, next: null, last: 0 });
    expect(pageOffsets({ limit: 100, offset: Number.MAX_SAFE_INTEGER }, 3)).toMatchObject({ prev: 0 });
  });

  it('an offset off the grid of pages steps back by limit, never below 0', () => {
    expect(pageOffsets({ limit: 10, offset: 13 }, 25)).toMatchObject({ prev: 3, next: 23 });
    expect(pageOffsets({ limit: 10, offset: 3 }, 25)).toMatchObject({ prev: 0, next: 13 });
  });

  it('following next from the first page visits every record exactly once; prev walks the same pages back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 100 }), (total, limit) => {
        const forward: number[] = [];
        for (
          let offset: number | null = 0;
          offset !== null;
          offset = pageOffsets({ limit, offset }, total).next
        )
          forward.push(offset);
        const seen = forward.flatMap((o) =>
          Array.from({ length: Math.max(0, Math.min(limit, total - o)) }, (_, i) => o + i),
        );
        expect(seen).toEqual(Array.from({ length: total }, (_, i) => i));
        expect(forward.at(-1)).toBe(pageOffsets({ limit, offset: 0 }, total).last);
        const back: number[] = [];
        const { last } = pageOffsets({ limit, offset: 0 }, total);
        for (
          let offset: number | null = last;
          offset !== null;
          offset = pageOffsets({ limit, offset }, total).prev
        )
          back.push(offset);
        expect(back).toEqual([...forward].reverse());
      }),
    );
  });
});

describe('pagination links', () => {
  it('each is the request URL with only the paging parameters replaced: filters, sort and include are kept', () => {
    const query = { 'filter[name]': 'Night shift', sort: '-name', include: 'members', 'page[limit]': '2' };
    const links = paginationLinks(target(query), { limit: 2, offset: 2 }, 7);
    expect(Object.keys(links)).toEqual(['self', 'first', 'prev', 'next', 'last']);
    const kept = { 'filter[name]': 'Night shift', sort: '-name', include: 'members' };
    expect(paramsOf(links.first)).toEqual({ ...kept, 'page[limit]': '2', 'page[offset]': '0' });
    expect(paramsOf(links.prev)).toEqual({ ...kept, 'page[limit]': '2', 'page[offset]': '0' });
    expect(paramsOf(links.next)).toEqual({ ...kept, 'page[limit]': '2', 'page[offset]': '4' });
    expect(paramsOf(links.last)).toEqual({ ...kept, 'page[limit]': '2', 'page[offset]': '6' });
    for (const link of Object.values(links)) {
      expect(new URL(link ?? '').origin + new URL(link ?? '').pathname).toBe(`${BASE}${TEAMS}`);
    }
  });

  it('self is the request as sent: no paging parameter is added to a request that sent none', () => {
    const links = paginationLinks(target({ sort: 'name' }), { limit: 25, offset: 0 }, 3);
    expect(links.self).toBe(`${BASE}${TEAMS}?sort=name`);
    expect(paginationLinks(target({}), { limit: 25, offset: 0 }, 3).self).toBe(`${BASE}${TEAMS}`);
    // The default page size is written out, so every paging link names its page whatever the default.
    expect(paramsOf(links.first)).toEqual({ sort: 'name', 'page[limit]': '25', 'page[offset]': '0' });
  });

  it('prev and next are null at the ends; first and last are never null', () => {
    expect(paginationLinks(target({}), { limit: 10, offset: 0 }, 25)).toMatchObject({ prev: null });
    expect(paginationLinks(target({}), { limit: 10, offset: 20 }, 25)).toMatchObject({ next: null });
    const empty = paginationLinks(target({}), { limit: 10, offset: 0 }, 0);
    expect(empty).toMatchObject({ prev: null, next: null });
    expect(paramsOf(empty.last)).toEqual({ 'page[limit]': '10', 'page[offset]': '0' });
  });

  it('a caller who pages with limit/offset gets links in that form', () => {
    const links = paginationLinks(target({ limit: '2', offset: '2' }), { limit: 2, offset: 2 }, 7);
    expect(paramsOf(links.next)).toEqual({ limit: '2', offset: '4' });
    expect(links.next).toBe(`${BASE}${TEAMS}?limit=2&offset=4`);
  });

  it('a caller who sent page[…] (alone or with limit/offset, which it overrides) gets page[…] links only', () => {
    for (const query of [
      { 'page[offset]': '2', limit: '2' } as Record<string, string>,
      { 'page[limit]': '2', 'page[offset]': '2', limit: '50', offset: '40' },
    ]) {
      expect(paramsOf(paginationLinks(target(query), { limit: 2, offset: 2 }, 7).next)).toEqual({
        'page[limit]': '2',
        'page[offset]': '4',
      });
    }
  });

  it('square brackets are percent-encoded (JSON:API 1.1 appendix; RFC 3986 allows them only in hosts)', () => {
    const links = paginationLinks(target({ 'filter[name]': 'A&B' }), { limit: 1, offset: 0 }, 2);
    expect(links.next).toBe(`${BASE}${TEAMS}?filter%5Bname%5D=A%26B&page%5Blimit%5D=1&page%5Boffset%5D=1`);
    expect(links.self).toBe(`${BASE}${TEAMS}?filter%5Bname%5D=A%26B`);
  });

  it('a path that starts with // stays a path on the request host', () => {
    const link = requestLink({ method: 'GET', baseUrl: BASE, path: '//evil.example/x', query: {} });
    expect(new URL(link).origin).toBe(BASE);
  });
});

describe('top-level self of a single-resource document', () => {
  const record: ResourceObject = {
    type: 'teams',
    id: '0190f0a0-0000-7000-8000-0000000000aa',
    attributes: {},
    meta: {},
    relationships: {},
    links: { self: `${BASE}/v3/teams/0190f0a0-0000-7000-8000-0000000000aa` },
  };

  it('for a GET, the request URL with its include: the link that generated the document', () => {
    expect(resourceSelf({ ...target({ include: 'members' }), path: '/v3/teams/x' }, record)).toBe(
      `${BASE}/v3/teams/x?include=members`,
    );
  });

  it('for a write, the record’s own URL: a GET there answers the record (the request URL may take no GET)', () => {
    expect(resourceSelf(target({}, 'POST'), record)).toBe(record.links?.self);
    expect(resourceSelf(target({}, 'PATCH'), record)).toBe(record.links?.self);
  });
});
