/**
 * The routes bench's agents (test/bench/seed-routes.ts loads this file by its name; no module of the service
 * imports it): agents, and one agent's briefings (every third archived).
 */
import { type BenchSeeds, HAZARDS, idsOf, pick, town, WORK } from '../../test/bench/seed-steps';

export const benchSeeds: BenchSeeds = {
  writes: [
    {
      at: 170,
      steps: (c) => {
        const ids = idsOf(c);
        return [
          {
            route: 'createAgent',
            data: (i) => ({
              attributes: {
                name: `${pick(['CDM', 'Fleet', 'Street works', 'Customer care', 'Cost', 'Document'], i)} ${pick(['adviser', 'reviewer', 'analyst', 'assistant', 'auditor'], i)}`,
                description: `Reads ${town(i)} records overnight.`,
                persona:
                  'You review the records of a UK water utility and point out gaps, risks and overdue actions.',
                model: pick(['example-large-2025', 'example-small-2025'], i),
                enabled: i % 6 !== 5,
              },
            }),
          },
          {
            route: 'createBriefing',
            params: () => ({ agent_id: ids('agents') }),
            data: (i) => ({
              attributes: {
                summary: `${1 + (i % 4)} items need attention on ${pick(WORK, i).toLowerCase()}, ${town(i)}.`,
                sections: [
                  {
                    title: 'Key risks',
                    items: [{ text: pick(HAZARDS, i)[0], severity: pick(['red', 'amber', 'green'], i) }],
                    reasoning: 'Cross-checked against the pre-construction information.',
                  },
                ],
                reasoning: {
                  approach: 'cross-check',
                  sources: ['pre-construction-information', 'site-hazards'],
                },
                model_used: 'example-large-2025',
                token_usage: { prompt_tokens: 1800 + i * 37, completion_tokens: 240 + i * 11 },
              },
            }),
          },
          {
            route: 'updateBriefing',
            count: 10,
            into: 'archived-briefings',
            params: (i) => ({ briefing_id: ids('briefings', i * 3) }),
            data: (i) => ({ id: ids('briefings', i * 3), attributes: { status: 'archived' } }),
          },
        ];
      },
    },
  ],
};
