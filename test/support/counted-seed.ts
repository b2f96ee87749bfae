/**
 * Records seeded with BatchWriteItem (tests and the bench load thousands quickly), stored as their creates
 * would have stored them: each type's counter item holds what those creates' transactions would have added
 * (`count`, and each counted filter's `<field>#<value>`, transaction.ts), so totals read as after the API.
 */
import { bulkPut } from '#shared/data/bulk';
import { counterKey, countMoves, keyId, type StoredResource } from '#shared/data/stored-resource';

export const bulkPutCounted = async (records: readonly StoredResource[]): Promise<void> => {
  const counters = new Map<string, Record<string, unknown> & { count: number }>();
  const stored = records.map((record) => {
    const key = counterKey(record.org_id, record.type);
    const counter = counters.get(keyId(key)) ?? { ...key, count: 0 };
    counters.set(keyId(key), counter);
    const { stored: item, moves } = countMoves(record, true);
    counter.count += 1;
    for (const [name, by] of Object.entries(moves)) counter[name] = ((counter[name] as number) ?? 0) + by;
    return item;
  });
  await bulkPut([...stored, ...counters.values()] as unknown as Record<string, unknown>[]);
};
