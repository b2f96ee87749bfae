/**
 * The routes bench's comments (test/bench/seed-routes.ts loads this file by its name; no module of the
 * service imports it): a scheme's comments, from the admin and from the integration.
 */
import { at, type BenchSeeds, idsOf, pick } from '../../test/bench/seed-steps';

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 180,
      steps: (c) => {
        const ids = idsOf(c);
        return [
          {
            route: 'createComment',
            as: (i) => (i % 3 === 2 ? 'bot' : 'admin'),
            data: (i) => ({
              attributes: {
                body: `${pick(['Traffic management booked for', 'Permit conditions checked on', 'Valve chamber inspected on', 'Residents letter sent on', 'Telemetry alarm cleared on'], i)} ${at(i, 2).slice(0, 10)}.`,
                subject: { type: 'schemes', id: ids('schemes') },
              },
            }),
          },
        ];
      },
    },
  ],
};
