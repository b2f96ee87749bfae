/**
 * The routes bench's work hierarchy (test/bench/seed-routes.ts loads this file by its name; no module of the
 * service imports it): contracts, schemes, work orders, operations.
 */
import {
  at,
  type BenchSeeds,
  idsOf,
  many,
  OPERATIONS,
  one,
  pick,
  STREETS,
  town,
  two,
  WORK,
} from '../../test/bench/seed-steps';

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 120,
      steps: (c) => {
        const ids = idsOf(c);
        const user = (i: number) => ids('users', i);
        return [
          {
            route: 'createSchemeContract',
            data: (i) => ({
              attributes: {
                name: `${town(i)} ${pick(['framework', 'capital programme', 'maintenance term', 'AMP8 region'], i)}`,
                code: `NW-C${two(i)}`,
                description: `Contract for work in and around ${town(i)}.`,
              },
            }),
          },
          {
            route: 'createScheme',
            data: (i) => ({
              attributes: {
                name: `${pick(WORK, i)}, ${town(i)}`,
                code: `NW-S${two(i)}`,
                description: `${pick(WORK, i)} along ${pick(STREETS, i)}, ${town(i)}.`,
                dates: {
                  anticipated: {
                    start: at(i, 12, '2025-09-01T08:00:00Z'),
                    end: at(i, 12, '2026-03-01T17:00:00Z'),
                  },
                },
                labels: [{ key: 'programme', value: pick(['AMP8', 'Resilience', 'Growth'], i) }],
              },
              relationships: {
                contracts: many('scheme-contracts', [ids('scheme-contracts', i)]),
                site_managers: many('users', [user(i)]),
                assignees: many('users', [user(i + 1), user(i + 3)]),
                teams: many('teams', [ids('teams', i)]),
                locations: many('locations', [ids('locations', i)]),
              },
            }),
          },
          {
            // Named "Section …": GET …/projects/search?filter[prefix]=section finds them (and the demo's).
            route: 'createWorkOrder',
            data: (i) => ({
              attributes: {
                name: `Section ${'ABCD'[i % 4]}, ${pick(STREETS, i)}, ${town(i)}`,
                code: `NW-S${two(i)}-W1`,
                status: pick(['todo', 'in_progress', 'done', 'in_progress'], i),
              },
              relationships: { scheme: one('schemes', ids('schemes', i)) },
            }),
          },
          {
            route: 'createOperation',
            data: (i) => ({
              attributes: {
                name: `${pick(OPERATIONS, i)}, ${town(i)}`,
                status: pick(['todo', 'in_progress', 'done'], i),
                ...(i % 3 === 2 && { done_reason: pick(['completed', 'completed', 'aborted'], i) }),
              },
              relationships: { work_order: one('work-orders', ids('work-orders', i)) },
            }),
          },
        ];
      },
    },
  ],
};
