/** A body for each of the comments area's write routes (null: it takes none); see shared/engine/examples.ts. */
import type { RequestExamples } from '#shared/engine/examples';

export const examples: RequestExamples = {
  createComment: (i) => ({
    data: {
      type: 'comments',
      attributes: { body: 'Called twice.', subject: { type: 'customer-contacts', id: i.contact_id } },
    },
  }),
};
