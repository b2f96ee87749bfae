/**
 * Claimed filters (shared/engine/claimed-filters.ts): an equality on a unique value names its claim's key
 * in the one organisation read, never a range; and a declaration may call a filter claimed only where its
 * pattern is a claim (a table item keyed by the organisation and the value alone).
 */
import { describe, expect, it } from 'vitest';
import { jobRoles } from '#functions/people/job-roles';
import type { CollectionQuery } from '#shared/data/collection-query';
import { claimOf } from '#shared/engine/claimed-filters';
import { indexedRead } from '#shared/engine/indexed-filters';
import { typeKeys } from '#shared/engine/keys';

const query = (filters: Record<string, unknown>[]): CollectionQuery =>
  ({
    filters,
    sort: { field: 'name', path: 'attributes.name', index: 'lsi1', descending: false },
    page: { limit: 25, offset: 0 },
    include: [],
  }) as unknown as CollectionQuery;
const code = { field: 'code', op: 'eq', path: 'attributes.code', value: 'SSUP' };

describe('a claimed equality', () => {
  it("names the claim's key in the organisation read, and is never read as an index range", () => {
    expect(claimOf(jobRoles, 'org-a', query([code]))).toEqual({ pk: 'ORG#org-a#job-role-codes', sk: 'SSUP' });
    expect(indexedRead(jobRoles, 'org-a', query([code]))).toBeNull();
  });

  it('names no claim for another filter alone', () => {
    const name = { field: 'name', op: 'eq', path: 'attributes.name', value: 'Site supervisor' };
    expect(claimOf(jobRoles, 'org-a', query([name]))).toBeNull();
  });

  it('is refused by the declaration on a pattern that is not a claim', () => {
    const declare = (index: string) => () =>
      typeKeys({
        type: 'claimed-test',
        keys: { 'code-claim': { index: 'table', pk: 'ORG#{org_id}#claimed-test-codes', sk: '{code}' } },
        collection: {
          filters: { code: { kind: 'eq', path: 'attributes.code', index, claimed: true } },
          sorts: {},
          defaultSort: 'created_at',
          includes: [],
        },
      } as never);
    expect(declare('code-claim')).not.toThrow();
    expect(declare('record')).toThrow(/claimed filter code needs an equality on a claim's pattern/);
  });
});
