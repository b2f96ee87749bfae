/**
 * A vehicle inventory check's summary: for each flag (present, working, certified) how many items there
 * are, how many passed (true), failed (false) and are unknown (flag not given). Pure.
 */
export interface InventoryItem {
  equipment_id: string;
  present?: boolean | null;
  working?: boolean | null;
  certified?: boolean | null;
}

export interface FlagSummary {
  total: number;
  passed: number;
  failed: number;
  unknown: number;
}

const FLAGS = ['present', 'working', 'certified'] as const;

export const summariseInventory = (
  items: readonly InventoryItem[],
): Record<(typeof FLAGS)[number], FlagSummary> =>
  Object.fromEntries(
    FLAGS.map((flag) => [
      flag,
      {
        total: items.length,
        passed: items.filter((i) => i[flag] === true).length,
        failed: items.filter((i) => i[flag] === false).length,
        unknown: items.filter((i) => typeof i[flag] !== 'boolean').length,
      },
    ]),
  ) as Record<(typeof FLAGS)[number], FlagSummary>;
