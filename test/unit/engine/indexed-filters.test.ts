/**
 * Which pattern answers an indexed filter (shared/engine/indexed-filters.ts): a per-parent entry (a
 * folder's documents by status) answers under its parent alone, and an organisation's entry (equipment's
 * status) never a parent's children list, which would otherwise read every parent's matches.
 */
import { describe, expect, it } from 'vitest';
import { equipmentItems } from '#functions/assets/definitions';
import { documents } from '#functions/documents/definitions';
import type { CollectionQuery } from '#shared/data/collection-query';
import { indexedRead } from '#shared/engine/indexed-filters';

const byStatus = (value: string): CollectionQuery =>
  ({
    filters: [{ field: 'status', op: 'eq', path: 'attributes.status', value }],
    sort: { field: 'created_at', path: 'meta.created_at', descending: false },
    page: { limit: 25, offset: 0 },
    include: [],
  }) as unknown as CollectionQuery;

describe('an indexed filter under a parent', () => {
  it("reads a per-parent entry in that parent's range", () => {
    const read = indexedRead(documents, 'org', byStatus('pending'), { 'rels.folder': 'f1' });
    expect(read?.range).toMatchObject({ index: 'lsi1', from: 'folder#f1#status#pending#0' });
  });

  it('is not answered by a per-parent entry without its parent (no list of every folder’s documents)', () => {
    expect(indexedRead(documents, 'org', byStatus('pending'))).toBeNull();
  });

  it("is not answered by an organisation's entry, which would read every parent's matches", () => {
    expect(indexedRead(equipmentItems, 'org', byStatus('in_repair'), { 'rels.vehicle': 'v1' })).toBeNull();
    expect(indexedRead(equipmentItems, 'org', byStatus('in_repair'))?.range).toMatchObject({ index: 'gsi1' });
  });
});
