/**
 * The routes bench's costs (test/bench/seed-routes.ts loads this file by its name; no module of the service
 * imports it): rate codes with a rate each (the first with a new rate every month), sheets and lines.
 */
import { at, type BenchSeeds, idsOf, N, OPERATIONS, one, pick, town } from '../../test/bench/seed-steps';

const rate = (i: number, validFrom: string) => ({
  attributes: {
    valid_from: validFrom,
    cost: { amount: 8_000 + i * 250, currency: 'GBP' },
    charge: { amount: 10_000 + i * 310, currency: 'GBP' },
  },
});

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 140,
      steps: (c) => {
        const ids = idsOf(c);
        return [
          {
            route: 'createRateCode',
            data: (i) => {
              const category = pick(['labour', 'material', 'contractor', 'misc'] as const, i);
              const names = {
                labour: ['Gang day', 'Supervisor hour'],
                material: ['DI pipe 150 mm per m', 'Type 1 sub-base per t'],
                contractor: ['Traffic management day', 'Tanker hire day'],
                misc: ['Skip hire', 'Welfare unit week'],
              };
              return {
                attributes: {
                  code: `${category.slice(0, 3).toUpperCase()}-${100 + i * 3}`,
                  name: `${pick(names[category], i)}, ${town(i)}`,
                  category,
                  unit: pick(['day', 'hour', 'm', 't', 'each'], i),
                },
              };
            },
          },
          {
            route: 'createRateCodeVersion',
            type: 'rate-code-versions',
            params: (i) => ({ rate_code_id: ids('rate-codes', i) }),
            data: (i) => rate(i, '2025-01-01T00:00:00Z'),
          },
          {
            route: 'createRateCodeVersion',
            count: N - 1,
            serial: true,
            type: 'rate-code-versions',
            params: () => ({ rate_code_id: ids('rate-codes') }),
            data: (i) => rate(i + 1, at(i + 1, 30, '2025-01-01T00:00:00Z')),
          },
          {
            route: 'createCostSheet',
            data: (i) => ({
              attributes: {
                name: `Section ${'ABCD'[i % 4]} costs, ${town(i)}`,
                status: pick(['quoted', 'approved', 'completed'], i),
              },
              relationships: { work_order: one('work-orders', ids('work-orders', i)) },
            }),
          },
          {
            route: 'createCostLine',
            type: 'cost-lines',
            params: (i) => ({ cost_sheet_id: ids('cost-sheets', i) }),
            data: (i) => ({
              attributes: {
                kind: i % 4 === 3 ? 'estimate' : 'actual',
                description: `${pick(OPERATIONS, i)}, ${town(i)}`,
                quantity: 1 + ((i * 7) % 40) / 2,
                at: at(i, 7, '2025-06-03T12:00:00Z'),
              },
              relationships: { rate_code: one('rate-codes', ids('rate-codes', i)) },
            }),
          },
        ];
      },
    },
  ],
};
