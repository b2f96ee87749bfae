/**
 * Records seeded with BatchWriteItem (tests and the bench load thousands quickly), stored as their creates
 * would have stored them: each type's counter item holds what those creates' transactions would have added
 * (`count`, and each counted filter's `<field>#<value>`, transaction.ts; a per-parent filter's on its
 * parent's children counter, `countedIn`), so totals read as after the API.
 */
import { bulkPut } from '#shared/data/bulk';
import { countedIn, counterKey, countMoves, keyId, type StoredResource } from '#shared/data/stored-resource';

export const bulkPutCounted = async (records: readonly StoredResource[]): Promise<void> => {
  const counters = new Map<string, Record<string, unknown>>();
  const add = (key: { pk: string; sk: string }, name: string, by: number) => {
    const counter = counters.get(keyId(key)) ?? { ...key };
    counters.set(keyId(key), counter);
    counter[name] = ((counter[name] as number) ?? 0) + by;
  };
  const stored = records.map((record) => {
    const { stored: item, moves } = countMoves(record, true);
    add(counterKey(record.org_id, record.type), 'count', 1);
    for (const [name, by] of Object.entries(moves)) {
      const at = countedIn(record, name);
      add(at.key, at.name, by);
    }
    return item;
  });
  await bulkPut([...stored, ...counters.values()] as unknown as Record<string, unknown>[]);
};
