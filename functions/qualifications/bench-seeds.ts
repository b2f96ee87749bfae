/**
 * The routes bench's qualifications (test/bench/seed-routes.ts loads this file by its name; no module of the
 * service imports it): types (every fourth an induction to a location), specifications combining them, and
 * awards.
 */
import { type BenchSeeds, idsOf, many, one, pick, town, two } from '../../test/bench/seed-steps';

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 90,
      steps: (c) => {
        const ids = idsOf(c);
        const user = (i: number) => ids('users', i);
        return [
          {
            route: 'createQualificationType',
            data: (i) => ({
              attributes: {
                kind: pick(['induction', 'training', 'assessment', 'registration'], i),
                name: `${town(i)} ${pick(['induction', 'first aid', 'confined space', 'CSCS card'], i)}`,
                code: `QT-${two(i)}`,
                has_expiry: true,
                validity_period: pick(['P1Y', 'P3Y', 'P5Y'], i),
              },
              ...(i % 4 === 0 && { relationships: { locations: many('locations', [ids('locations', i)]) } }),
            }),
          },
          {
            route: 'createQualificationSpecification',
            data: (i) => ({
              attributes: {
                name: `${town(i)} ${pick(['operative', 'supervisor', 'visitor escort'], i)}`,
                code: `QS-${two(i)}`,
                rule: {
                  all_of: [
                    { qualification_type: ids('qualification-types', i) },
                    {
                      any_of: [
                        { qualification_type: ids('qualification-types', i + 1) },
                        { qualification_type: ids('qualification-types', i + 2) },
                      ],
                    },
                  ],
                },
              },
            }),
          },
          {
            route: 'createQualificationAward',
            data: (i) => ({
              attributes: { issued_at: `2026-0${1 + (i % 9)}-1${i % 10}`, number: `CARD-${two(i)}` },
              relationships: {
                person: one('users', user(i)),
                qualification_type: one('qualification-types', ids('qualification-types', i)),
              },
            }),
          },
        ];
      },
    },
  ],
};
