/**
 * A costed work hierarchy for one demo organisation, built through the same write functions the API
 * uses: a contract, two schemes, work orders and operations, rate codes with versions, and cost sheets
 * with actual and estimate lines. Returns the contract's id so `npm start` can print a roll-up URL.
 */

import { rateCodes } from '#functions/costs/definitions';
import { addRateVersion } from '#functions/costs/register';
import { addLine, createSheet } from '#functions/costs/sheets';
import { nodeCrud } from '#functions/projects/hierarchy';
import { scopeOf } from '#shared/data/scope';
import { declaredCrud } from '#shared/engine/simple-crud';

const rel = (type: string, id: string) => ({ data: { type, id } });

export const loadDemoCosts = async (orgId: string, prefix: string): Promise<string> => {
  const scope = scopeOf([orgId]);
  const node = async (
    segment: 'scheme-contracts' | 'schemes' | 'work-orders' | 'operations',
    attributes: object,
    relationships?: object,
  ) =>
    (
      await nodeCrud(segment).create(scope, orgId, {
        data: { type: segment, attributes, ...(relationships && { relationships }) },
      })
    ).id;

  const contract = await node('scheme-contracts', {
    name: `${prefix} framework 2026–2030`,
    code: `${prefix}-FW`,
  });
  const rates: Record<string, string> = {};
  for (const [code, name, category, cost, charge] of [
    ['LAB-GANG', 'Gang day (4 operatives)', 'labour', 96_000, 124_800],
    ['MAT-PIPE', 'Ductile iron pipe, 300 mm, per m', 'material', 8_500, 10_200],
    ['CON-TM', 'Traffic management, per day', 'contractor', 45_000, 51_750],
    ['MSC-SKIP', 'Skip hire', 'misc', 28_000, 32_200],
  ] as const) {
    const rate = await (await declaredCrud(rateCodes)).create(scope, orgId, {
      data: { type: 'rate-codes', attributes: { code, name, category } },
    });
    await addRateVersion(scope, rate, {
      data: {
        type: 'rate-code-versions',
        attributes: {
          valid_from: '2026-01-01T00:00:00Z',
          cost: { amount: cost, currency: 'GBP' },
          charge: { amount: charge, currency: 'GBP' },
        },
      },
    });
    rates[code] = rate.id;
  }
  for (const [s, schemeName] of ['High Street mains renewal', 'Reservoir outlet works'].entries()) {
    const scheme = await node(
      'schemes',
      { name: schemeName, code: `${prefix}-S${s + 1}` },
      { contracts: { data: [{ type: 'scheme-contracts', id: contract }] } },
    );
    for (const [w, woName] of ['Section A', 'Section B'].entries()) {
      const wo = await node(
        'work-orders',
        { name: woName, code: `${prefix}-S${s + 1}-W${w + 1}`, status: w === 0 ? 'in_progress' : 'todo' },
        { scheme: rel('schemes', scheme) },
      );
      await node(
        'operations',
        {
          name: 'Excavate and lay',
          status: w === 0 ? 'done' : 'todo',
          done_reason: w === 0 ? 'completed' : null,
        },
        { work_order: rel('work-orders', wo) },
      );
      const sheet = await createSheet(
        scope,
        orgId,
        {
          data: {
            type: 'cost-sheets',
            attributes: { name: `${woName} costs`, status: w === 0 ? 'approved' : 'quoted' },
            relationships: { work_order: rel('work-orders', wo) },
          },
        },
        null, // Seeded, not made by anyone: no creator to keep from approving it.
      );
      for (const [code, quantity, kind] of [
        ['LAB-GANG', 5 + s + w, 'actual'],
        ['MAT-PIPE', 120, 'actual'],
        ['CON-TM', 4, 'actual'],
        ['MSC-SKIP', 2, 'estimate'],
        ['LAB-GANG', 8, 'estimate'],
      ] as const) {
        await addLine(scope, sheet, {
          data: {
            type: 'cost-lines',
            attributes: { kind, quantity, at: '2026-03-01T00:00:00Z' },
            relationships: { rate_code: rel('rate-codes', rates[code] ?? '') },
          },
        });
      }
    }
  }
  return contract;
};
