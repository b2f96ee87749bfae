/** A body for each of the exports area's write routes (null: it takes none); see shared/engine/examples.ts. */
import type { RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createExport: () => ({
    data: { type: 'exports', attributes: { subject_type: 'customer-contacts', format: 'json' } },
  }),
};
