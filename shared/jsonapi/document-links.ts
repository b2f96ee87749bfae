/**
 * A document's top-level links, derived from the request that the document answers: its base URL, its
 * path as requested and its query, with only the paging parameters replaced. No handler assembles one.
 *
 * Queries are written by `URLSearchParams` (the WHATWG form encoding): `[` and `]` come out as `%5B` and
 * `%5D`, as JSON:API 1.1's appendix on square brackets asks and as a strict URI (RFC 3986) needs.
 */
import type { Page } from '../data/collection-query';
import type { QueryParameters } from './collection-query';
import { pageOffsets } from './pagination';

/** A request as the links of its answer see it (an `ApiRequest` is one). */
export interface RequestTarget {
  method: string;
  /** Scheme and host the request came in on. */
  baseUrl: string;
  /** The path as requested. */
  path: string;
  /** The query as the handler read it (repeated names comma-joined, as API Gateway hands them over). */
  query: QueryParameters;
}

// A type, not an interface, so that it is a `DataDocument`'s links record.
export type PaginationLinks = {
  self: string;
  first: string;
  prev: string | null;
  next: string | null;
  last: string;
};

const PAGING = ['page[limit]', 'page[offset]', 'limit', 'offset'] as const;
/** The parameter of a collection paged by cursor (`cursor` alone is the event feed's). */
export const CURSOR = 'page[cursor]';

/**
 * The paging parameters links write: the caller's own form, `limit`/`offset` for a caller who sent only
 * that form, else (`page[…]` sent, or nothing) JSON:API's `page` family.
 */
const pagingNames = (query: QueryParameters) =>
  query['page[limit]'] === undefined &&
  query['page[offset]'] === undefined &&
  (query.limit !== undefined || query.offset !== undefined)
    ? { limit: 'limit', offset: 'offset' }
    : { limit: 'page[limit]', offset: 'page[offset]' };

/** The request's URL; with `page`, its paging parameters (either form) replaced by that page's. */
export const requestLink = ({ baseUrl, path, query }: RequestTarget, page?: Page): string => {
  // Concatenated, not resolved: a path that starts `//` stays a path on this host.
  const url = new URL(`${baseUrl}${path}`);
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || (page && (PAGING as readonly string[]).includes(name))) continue;
    search.append(name, value);
  }
  if (page) {
    const names = pagingNames(query);
    search.append(names.limit, String(page.limit));
    search.append(names.offset, String(page.offset));
  }
  url.search = search.toString();
  return url.href;
};

/** `self`, `first`, `prev`, `next` and `last` of one page of a collection of `total` records. */
export const paginationLinks = (request: RequestTarget, page: Page, total: number): PaginationLinks => {
  const { limit } = page;
  const offsets = pageOffsets(page, total);
  const at = (offset: number) => requestLink(request, { limit, offset });
  return {
    self: requestLink(request),
    first: at(offsets.first),
    prev: offsets.prev === null ? null : at(offsets.prev),
    next: offsets.next === null ? null : at(offsets.next),
    last: at(offsets.last),
  };
};

export type CursorPageLinks = {
  self: string;
  first: string;
  next: string | null;
};

/** The request's URL with one parameter set to `value` (removed when undefined), the rest as sent. */
const withParameter = (request: RequestTarget, name: string, value: string | undefined) => {
  const url = new URL(requestLink(request));
  if (value === undefined) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  return url.href;
};

/**
 * `self`, `first` (an empty `page[cursor]`) and `next` of a page read by cursor; `next` is null after a
 * page shorter than asked for. There is no `prev` or `last`: a cursor only goes on.
 */
export const cursorPageLinks = (request: RequestTarget, next: string | undefined): CursorPageLinks => ({
  self: requestLink(request),
  first: withParameter(request, CURSOR, ''),
  next: next === undefined ? null : withParameter(request, CURSOR, next),
});

/** `self`, and `next`: the same request after `cursor` (where a reader resumes, even when caught up). */
export const cursorLinks = (request: RequestTarget, cursor: string | undefined) => ({
  self: requestLink(request),
  next: withParameter(request, 'cursor', cursor),
});

/**
 * Top-level `self` of a document whose primary data is one resource. JSON:API 1.1 makes it "the link
 * that generated the current response document" and obliges the server to answer a GET to it: for a GET
 * that is the request's URL (its `include` kept); a write was sent to a URL no GET serves as this
 * document (a collection, an action such as `/complete`), so its `self` is the record's own URL, whose
 * GET answers the record as it now is (for a creation, the `Location`).
 */
export const resourceSelf = (
  request: RequestTarget,
  // What it reads of the resource object (document.ts builds documents with these links).
  data: { type: string; links?: { self: string } },
): string => {
  if (request.method === 'GET') return requestLink(request);
  const own = data.links?.self;
  if (!own) throw new Error(`A ${data.type} answered to a ${request.method} has no URL of its own`);
  return own;
};
