/**
 * The routes bench's exports (test/bench/seed-routes.ts loads this file by its name; no module of the service
 * imports it): small exports written at once, and roll-up exports of the demo's costed contract, a scheme or
 * a work order, which are jobs (202): first of all the writes, so that their workers run while the rest is
 * written.
 */
import { type BenchSeeds, idsOf, pick } from '../../test/bench/seed-steps';

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 10,
      steps: (c) => {
        const ids = idsOf(c);
        const rollUp = (i: number) => {
          const [type, node] = pick(
            [
              ['scheme-contracts', ids('demo-contracts')],
              ['schemes', ids('demo-schemes', i)],
              ['work-orders', ids('demo-work-orders', i)],
            ] as const,
            i,
          );
          const depth = i % 4 === 3 ? '' : ',eq(depth,all)';
          return `and(eq(organisation,${c.org}),eq(cost_centre,${node}),eq(cost_centre_type,${type})${depth})`;
        };
        // biome-ignore format: a word list
        const subjects = ['equipment', 'vehicles', 'schemes', 'work-orders', 'operations', 'locations', 'customer-contacts', 'audit-events'];
        return [
          {
            route: 'createExport',
            count: 10,
            data: (i) => ({
              attributes: { subject_type: pick(subjects, i), format: i % 2 ? 'json' : 'csv' },
            }),
          },
          {
            route: 'createExport',
            count: 25,
            status: 202,
            into: 'jobs',
            data: (i) => ({
              attributes: {
                subject_type: 'cost-rollups',
                format: i % 3 ? 'csv' : 'json',
                filters: { filter: rollUp(i) },
              },
            }),
          },
        ];
      },
    },
  ],
};
