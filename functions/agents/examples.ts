/** A body for each of the agents area's write routes (null: it takes none); see shared/engine/examples.ts. */
import type { RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createAgent: () => ({
    data: { type: 'agents', attributes: { name: 'Adviser', persona: 'Reviews CDM risks.', enabled: true } },
  }),
  updateAgent: (i) => ({ data: { type: 'agents', id: i.agent_id, attributes: { name: 'CDM adviser' } } }),
  createBriefing: () => ({
    data: {
      type: 'briefings',
      attributes: {
        summary: 'One risk.',
        sections: [
          { title: 'Key risks', items: [{ text: 'Excavation', severity: 'red' }], reasoning: 'PCI' },
        ],
        reasoning: { approach: 'cross-check' },
        model_used: 'example-model',
        token_usage: { prompt_tokens: 10, completion_tokens: 5 },
      },
    },
  }),
  updateBriefing: (i) => ({
    data: { type: 'briefings', id: i.briefing_id, attributes: { status: 'archived' } },
  }),
};
