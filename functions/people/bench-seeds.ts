/**
 * The routes bench's people (test/bench/seed-routes.ts loads this file by its name; no module of the service
 * imports it): teams (after IAM's roles, before its grants) and job roles.
 */
import { type BenchSeeds, idsOf, many, pick, town, two } from '../../test/bench/seed-steps';

// biome-ignore format: a word list
const TITLES = ['Site supervisor', 'Plant operator', 'Street works coordinator', 'Civil engineer', 'Quantity surveyor', 'Traffic management operative', 'Network technician', 'CDM coordinator', 'Fleet manager', 'Asset inspector', 'Water quality scientist', 'Pipe layer', 'Ganger', 'Design engineer', 'Health and safety advisor'] as const;

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 40,
      steps: (c) => {
        const ids = idsOf(c);
        const user = (i: number) => ids('users', i);
        return [
          {
            // One at a time: a team's transaction appends it to each member's principal.
            route: 'createTeam',
            serial: true,
            data: (i) => ({
              attributes: {
                name: `${town(i)} ${pick(['mains gang', 'reservoir crew', 'street works', 'survey team', 'plant operators', 'SHEQ'], i)}`,
                description: `Covers ${town(i)} and the villages around it.`,
              },
              relationships: {
                members: many('users', [user(i + 1), user(i + 3), user(i % 3 === 0 ? i + 4 : i + 1)]),
              },
            }),
          },
        ];
      },
    },
    {
      at: 60,
      steps: (_c) => {
        const title = (i: number) => `${i >= 15 ? 'Senior ' : ''}${pick(TITLES, i)}`;
        return [
          {
            route: 'createJobRole',
            data: (i) => ({
              attributes: {
                name: title(i),
                code: `${title(i).replace(/[^A-Z]/g, '')}-${two(i)}`,
                description: `${title(i)} on capital and maintenance work.`,
              },
            }),
          },
        ];
      },
    },
  ],
};
