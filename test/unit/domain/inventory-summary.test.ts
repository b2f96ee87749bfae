import { describe, expect, it } from 'vitest';
import { summariseInventory } from '#functions/assets/rules/inventory-summary';

describe('vehicle inventory check summary', () => {
  it('counts passed, failed and unknown (a missing flag) per flag', () => {
    expect(
      summariseInventory([
        { equipment_id: 'a', present: true, working: true, certified: false },
        { equipment_id: 'b', present: true, working: false },
        { equipment_id: 'c', present: false, working: null, certified: true },
      ]),
    ).toEqual({
      present: { total: 3, passed: 2, failed: 1, unknown: 0 },
      working: { total: 3, passed: 1, failed: 1, unknown: 1 },
      certified: { total: 3, passed: 1, failed: 1, unknown: 1 },
    });
  });

  it('an empty check has zero of everything', () => {
    expect(summariseInventory([]).present).toEqual({ total: 0, passed: 0, failed: 0, unknown: 0 });
  });
});
