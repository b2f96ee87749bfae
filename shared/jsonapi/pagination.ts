/**
 * Where a page sits in its collection, computed once: `meta.pagination` and the top-level pagination
 * links both read `pageOffsets`, so a client paging by the meta's offsets and one following the links
 * see the same pages.
 */
import type { Page } from '../data/collection-query';

export interface PageOffsets {
  first: 0;
  /** Null on the first page; from beyond the end, the last page (the nearest one that holds records). */
  prev: number | null;
  /** Null on the last page and beyond the end. */
  next: number | null;
  /** The last page's offset in pages of `limit` counted from 0; 0 for an empty collection. */
  last: number;
}

export const pageOffsets = ({ limit, offset }: Page, total: number): PageOffsets => {
  const last = Math.max(0, (Math.ceil(total / limit) - 1) * limit);
  return {
    first: 0,
    // Within the collection `offset - limit` never passes `last`; beyond it, stepping back one page at
    // a time would walk through empty pages, so the way back starts at the last page.
    prev: offset === 0 ? null : Math.max(0, Math.min(offset - limit, last)),
    next: offset + limit >= total ? null : offset + limit,
    last,
  };
};

export type PaginationMeta = ReturnType<typeof paginationMeta>;

/** `meta.pagination`, from the requested page and the total count. */
export const paginationMeta = (page: Page, total: number) => {
  const { prev, next } = pageOffsets(page, total);
  return {
    current_page: Math.floor(page.offset / page.limit) + 1,
    counts: { pages: Math.ceil(total / page.limit), resources: total },
    requested: { limit: page.limit, offset: page.offset },
    offsets: { previous: prev, next },
  };
};

/**
 * `meta.pagination` of a page read by cursor: what was asked, and the collection's size where it is
 * known without reading it (an unfiltered collection's counters; a filtered one is not counted).
 */
export const cursorPaginationMeta = (limit: number, cursor: string, total: number | undefined) => ({
  requested: { limit, cursor },
  ...(total !== undefined && { counts: { resources: total } }),
});

export type CursorPaginationMeta = ReturnType<typeof cursorPaginationMeta>;
