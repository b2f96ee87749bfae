/**
 * Which pattern answers an indexed filter (shared/engine/indexed-filters.ts): a per-parent entry (a
 * folder's documents by status) answers under its parent alone, and an organisation's entry (equipment's
 * status) never a parent's children list, which would otherwise read every parent's matches. An entry
 * ordered by a value after its prefix reads one value's records in that value's order.
 */
import { describe, expect, it } from 'vitest';
import { equipmentItems } from '#functions/assets/definitions';
import { customerInteractions } from '#functions/customers/definitions';
import { documents } from '#functions/documents/definitions';
import type { CollectionQuery } from '#shared/data/collection-query';
import { indexedRead } from '#shared/engine/indexed-filters';
import { toStoredResource } from '#shared/engine/stored';

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

const interactionsQuery = (
  filters: Record<string, unknown>[],
  sort = { field: 'occurred_at', path: 'attributes.occurred_at', index: 'lsi1', descending: true },
): CollectionQuery =>
  ({ filters, sort, page: { limit: 25, offset: 0 }, include: [] }) as unknown as CollectionQuery;
const contact = { field: 'contact', op: 'eq', path: 'rels.contact', value: 'c1' };
const occurred = (op: 'since' | 'until', value: string) => ({
  field: 'occurred_at',
  op,
  path: 'attributes.occurred_at',
  value,
});

describe('an entry ordered by a value after its prefix (a contact’s interactions in the order they occurred)', () => {
  it("reads the contact's range, in the list's sort: a page reads what it returns", () => {
    const read = indexedRead(customerInteractions, 'org', interactionsQuery([contact]));
    expect(read).toMatchObject({
      range: { index: 'gsi2', pk: 'CUSTOMER-INTERACTIONS#org#c1', to: '\u{10FFFF}' },
      sorted: true,
    });
  });

  it('narrows it to a window on the ordering value, each bound as the sort index keeps it', () => {
    const window = [contact, occurred('since', '2026-03-01T00:00:00.000Z'), occurred('until', '2026-03-31')];
    expect(indexedRead(customerInteractions, 'org', interactionsQuery(window))?.range).toMatchObject({
      from: '2026-03-01t00:00:00.000z',
      to: '2026-03-31#~',
    });
  });

  it('reads a counted value in the same order, counted from its count when alone', () => {
    const channel = { field: 'channel', op: 'eq', path: 'attributes.channel', value: 'sms' };
    expect(indexedRead(customerInteractions, 'org', interactionsQuery([channel]))).toMatchObject({
      range: { index: 'gsi1', from: 'channel#sms#', to: 'channel#sms#\u{10FFFF}' },
      sorted: true,
      total: { counter: 'channel#sms' },
    });
  });

  it('keeps the ordering value case-folded in the entry, as the sort index keeps it', () => {
    const stored = toStoredResource(customerInteractions, {
      orgId: 'org',
      id: 'i1',
      attributes: { channel: 'sms', occurred_at: '2026-03-02T10:00:00.000Z' },
      meta: {},
      rels: { contact: 'c1' },
    });
    expect(stored).toMatchObject({
      gsi1sk: 'channel#sms#2026-03-02t10:00:00.000z#i1',
      gsi2pk: 'CUSTOMER-INTERACTIONS#org#c1',
      gsi2sk: '2026-03-02t10:00:00.000z#i1',
      lsi1: '2026-03-02t10:00:00.000z',
    });
  });
});
