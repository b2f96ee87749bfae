/** A body for each of the organisations area's write routes (null: it takes none); see shared/engine/examples.ts. */
import type { RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  updateSettings: (i) => ({
    data: { type: 'settings', id: i.settings_id, attributes: { week_start: 'sunday' } },
  }),
};
