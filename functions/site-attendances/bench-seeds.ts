/**
 * The routes bench's site attendance (test/bench/seed-routes.ts loads this file by its name; no module of the
 * service imports it): each location's settings and visitors on one site.
 */
import { type BenchSeeds, FIRST, idsOf, LAST, one, pick, town } from '../../test/bench/seed-steps';

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 100,
      steps: (c) => {
        const ids = idsOf(c);
        return [
          {
            route: 'createSiteSetting',
            data: (i) => ({
              attributes: {
                closing_time: pick(['17:00', '18:00', '19:30'], i),
                missing_qualification: pick(['warn', 'refuse'], i),
              },
              relationships: {
                location: one('locations', ids('locations', i)),
                required_specification: one(
                  'qualification-specifications',
                  ids('qualification-specifications', i),
                ),
              },
            }),
          },
          {
            route: 'createSiteAttendance',
            data: (i) => ({
              attributes: {
                method_in: pick(['kiosk', 'qr', 'manual'], i),
                attendee_kind: 'visitor',
                guest: { name: `${pick(FIRST, i)} ${pick(LAST, i)}`, company: `${town(i)} Surveys` },
              },
              relationships: { location: one('locations', ids('locations', 0)) },
            }),
          },
        ];
      },
    },
  ],
};
